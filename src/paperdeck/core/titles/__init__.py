"""Method names and derived titles for papers that come without one."""
