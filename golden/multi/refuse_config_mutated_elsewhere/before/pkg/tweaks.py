from pkg.configs import CONFIG

CONFIG["scale"] = 3.0
