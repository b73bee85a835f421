"""The reader's panes: the paper list, the detail pane, the notes panel and the search box."""
