# Cut down from jax-ml/jax#3603 (Issue with JIT when compiling scan function with
# given length): the scan length is an argument of the jitted function, so it
# arrives as a tracer. (The original returned nothing; the result is returned
# here so the program prints it.)
import jax

def do_stuff(length):
    def f(carry,x):
        return carry, [None]

    return jax.lax.scan(f,[1], xs=None, length=length)

print(jax.jit(do_stuff, static_argnames=("length",))(10))
