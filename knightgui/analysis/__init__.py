"""The Analysis view: its pages, plots, tables and the opener of the view."""
