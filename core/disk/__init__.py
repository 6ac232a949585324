"""File access the engine and the formats share: bounded reads, file identity, meshes."""
