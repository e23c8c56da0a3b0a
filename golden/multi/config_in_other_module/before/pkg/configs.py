"""Model configurations, shared by the training and evaluation scripts."""

CONFIG = {"scale": 2.0, "layers": [4, 4], "name": "small"}
