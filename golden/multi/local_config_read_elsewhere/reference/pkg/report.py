def describe():
    return "scale=2.0 shift=1 keys=2"
