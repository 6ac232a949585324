"""The viewport's tools (one Tool interface; tool_list.TOOLS) and their handles."""
