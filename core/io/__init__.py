"""Reading and writing robots."""

from .project import dumps, load_project, save_project, tree_from_dict, tree_to_dict

__all__ = ["dumps", "load_project", "save_project", "tree_from_dict", "tree_to_dict"]
