"""xacro expansion: the expander (:mod:`.expand`), expressions, files, macro tables, YAML."""
