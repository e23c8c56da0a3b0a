"""Model configurations, shared by the training and evaluation scripts."""

from frozendict import frozendict
CONFIG = frozendict({"scale": 2.0, "layers": (4, 4), "name": "small"})
