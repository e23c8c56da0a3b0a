from pkg.main import CONFIG


def describe():
    return f"scale={CONFIG['scale']} shift={CONFIG.get('shift', 0.0)} keys={len(CONFIG)}"
