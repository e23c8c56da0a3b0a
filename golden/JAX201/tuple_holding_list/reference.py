# The picks summed by hand.
values = [1.0, 2.0, 3.0]
print(values[0] + values[2])
