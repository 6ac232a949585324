"""The window's features: one module each, ending with its Feature
(feature_list.FEATURES)."""
