import jax
import jax.numpy as jnp
import flax.linen as nn


class MyModel(nn.Module):
    num_neurons: int

    @nn.compact
    def __call__(self, x, training: bool):
        x = nn.Dense(self.num_neurons)(x)
        x = nn.Dropout(rate=0.5, deterministic=not training)(x)
        return x


MyModel = nn.jit(MyModel, static_argnames="training")


def main():
    my_model = MyModel(num_neurons=3)
    x = jnp.ones((4, 3))
    params_key, dropout_key = jax.random.split(jax.random.PRNGKey(0))
    variables = my_model.init(params_key, x, training=False)
    y_eval = my_model.apply(variables, x, training=False)
    y_train = my_model.apply(variables, x, training=True, rngs={'dropout': dropout_key})
    print("eval:", [[round(v, 4) for v in row] for row in y_eval.tolist()])
    print("train:", [[round(v, 4) for v in row] for row in y_train.tolist()])


if __name__ == '__main__':
    main()
