"""The main window: its actions and menus, files, help, Watch and the warm-up."""
