def export_mjcf(*a): pass
def mjcf_string(*a): pass
