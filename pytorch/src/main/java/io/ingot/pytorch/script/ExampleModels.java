package io.ingot.pytorch.script;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Writes the example repository's TorchScript model at build time (run from {@code pytorch/pom.xml}):
 * {@code <repository>/torch_mlp/1/model.pt}, {@link ScriptModels#mlp} with 16 inputs, 32 hidden units and 4 outputs,
 * seed {@value #SEED}. Its {@code config.pbtxt} is committed beside it; the archive is not.
 */
public final class ExampleModels
{
    /** The example model's name in the repository. */
    public static final String MLP = "torch_mlp";
    /** The example's weights' seed. */
    public static final long SEED = 17;
    /** Input features. */
    public static final int INPUTS = 16;
    /** Hidden units. */
    public static final int HIDDEN = 32;
    /** Output features. */
    public static final int OUTPUTS = 4;

    private ExampleModels()
    {
    }

    /** @return the example MLP module */
    public static ScriptModule mlp()
    {
        return ScriptModels.mlp("TorchMlp", INPUTS, HIDDEN, OUTPUTS, SEED);
    }

    /**
     * @param args the example repository's directory
     * @throws IOException when the archive cannot be written
     */
    public static void main(final String[] args) throws IOException
    {
        if (args.length != 1)
        {
            throw new IllegalArgumentException("usage: ExampleModels <model repository>");
        }
        final Path file = Path.of(args[0]).resolve(MLP).resolve("1").resolve("model.pt");
        TorchScriptWriter.write(mlp(), file);
        System.out.println("wrote " + file.toAbsolutePath().normalize());
    }
}
