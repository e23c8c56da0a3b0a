from pkg import main


def describe():
    main.CONFIG["shift"] = 0.0
    return f"scale={main.CONFIG['scale']}"
