"""The main window: menus and the feature machinery, the layout, files, autosave
and recovery."""
