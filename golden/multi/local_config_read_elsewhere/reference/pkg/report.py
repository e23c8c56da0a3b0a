def describe():
    return "scale=2.0 shift=1.0 keys=2"
