

def test_interactive_returns_what_the_user_left_when_the_window_closes(qtbot, viewer_settings):
    from kinetree.app import interactive
    from kinetree.app.scripting import _script_window_class
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    tree = load_robot("puma560")
    moved = [0.2, 0.4, -0.3, 0.1, 0.5, 0.0]

    def user():  # runs once interactive() waits: moves the joints, selects a body, closes
        [w] = [w for w in QApplication.topLevelWidgets() if isinstance(w, _script_window_class()) and w.isVisible()]
        w.doc.set_configuration(moved)
        w.doc.select("link4")
        w.close()

    QTimer.singleShot(100, user)
    q, pose = interactive(tree, Q)
    assert np.array_equal(q, moved)
    assert np.allclose(pose, tree.get_transform(moved, "link4"))
