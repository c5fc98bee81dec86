"""Torn edge thresholds of SPEC §7 for the Python side (plots, Blender
measurements); the C++ side's are measure/edge_stretch.h kTornAbove/kTornBelow.
An edge sample is torn when skinned / bind length is strictly above TORN_HIGH
(stretched) or strictly below TORN_LOW (crushed)."""

TORN_HIGH = 1.5
TORN_LOW = 0.67
