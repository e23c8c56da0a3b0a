# The method without jit.
class Scaler:
    def __init__(self, offset):
        self.offset = offset

    def run(self, xs):
        return [x * 3.0 + self.offset for x in xs]


print(Scaler(1.0).run([1.0, 2.0]))
