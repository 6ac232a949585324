"""Reading and writing robots: :func:`import_robot` / :func:`export_robot` pick the format."""

from .files import export_robot, file_kind, import_robot, open_robot
from .project import dumps, load_project, save_project, tree_from_dict, tree_to_dict

__all__ = ["dumps", "export_robot", "file_kind", "import_robot", "load_project", "open_robot", "save_project",
           "tree_from_dict", "tree_to_dict"]
