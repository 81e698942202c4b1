"""A tour by hand: its verdict, the rule's hint, the rule's finish and the exact count of finishes."""
