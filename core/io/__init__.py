"""Reading and writing robots: :func:`import_robot` / :func:`export_robot` pick the format."""

from .dh_csv import DHTable, dh_csv_string, read_dh_csv, write_dh_csv
from .files import READ_SUFFIXES, WRITE_SUFFIXES, export_robot, file_kind, import_robot, open_robot
from .project import dumps, load_project, save_project, tree_from_dict, tree_to_dict

__all__ = ["READ_SUFFIXES", "WRITE_SUFFIXES", "DHTable", "dh_csv_string", "dumps", "export_robot", "file_kind",
           "import_robot", "load_project", "open_robot", "read_dh_csv", "save_project", "tree_from_dict",
           "tree_to_dict", "write_dh_csv"]
