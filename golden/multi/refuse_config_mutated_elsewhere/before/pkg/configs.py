CONFIG = {"scale": 2.0}
