package io.ingot.fil.examples;

import io.ingot.fil.xgboost.XgbBooster;
import io.ingot.fil.xgboost.XgbTraining;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;

/**
 * Writes the FIL example model: an XGBoost binary classifier over {@value #FEATURES} features, trained through
 * XGBoost's C API on {@value #ROWS} seeded rows whose label is {@code 1} exactly when
 * {@code x0 + 2 x1 - x2 > 1} (x3 is noise), saved as XGBoost JSON. Training is deterministic (exact tree method, one
 * thread, fixed seed), so the same file comes out of every build; an existing identical file is left untouched.
 * Run by {@code fil/pom.xml} (exec-maven-plugin, phase {@code process-classes}).
 */
public final class ExampleModelGenerator
{
    /** Features per row. */
    public static final int FEATURES = 4;
    /** Training rows. */
    public static final int ROWS = 1024;
    /** Boosting rounds. */
    public static final int ROUNDS = 20;

    private ExampleModelGenerator()
    {
    }

    /**
     * @param args the model file to write ({@code examples/models/xgboost_classifier/1/xgboost.json})
     * @throws IOException when the file cannot be written
     */
    public static void main(final String[] args) throws IOException
    {
        if (args.length != 1)
        {
            System.err.println("usage: ExampleModelGenerator <model file .json>");
            System.exit(2);
        }
        final Path target = Path.of(args[0]);
        Files.createDirectories(target.toAbsolutePath().getParent());
        final Path fresh = Files.createTempFile(target.toAbsolutePath().getParent(), "xgboost", ".json");
        try
        {
            try (XgbBooster booster = train())
            {
                booster.save(fresh);
            }
            if (Files.exists(target) && Arrays.equals(Files.readAllBytes(target), Files.readAllBytes(fresh)))
            {
                System.out.println("ExampleModelGenerator: " + target + " is up to date");
                return;
            }
            Files.move(fresh, target, StandardCopyOption.REPLACE_EXISTING);
            System.out.println("ExampleModelGenerator: wrote " + target + " (" + Files.size(target) + " bytes)");
        }
        finally
        {
            Files.deleteIfExists(fresh);
        }
    }

    /** @return the example classifier, trained */
    public static XgbBooster train()
    {
        final Random random = new Random(17);
        final float[] features = new float[ROWS * FEATURES];
        final float[] labels = new float[ROWS];
        for (int row = 0; row < ROWS; row++)
        {
            for (int k = 0; k < FEATURES; k++)
            {
                features[row * FEATURES + k] = random.nextFloat();
            }
            labels[row] = label(features[row * FEATURES], features[row * FEATURES + 1], features[row * FEATURES + 2]);
        }
        final Map<String, String> params = new LinkedHashMap<>();
        params.put("objective", "binary:logistic");
        params.put("tree_method", "exact");
        params.put("max_depth", "4");
        params.put("eta", "0.3");
        params.put("nthread", "1");
        params.put("seed", "0");
        return XgbTraining.train(features, FEATURES, labels, params, ROUNDS);
    }

    /**
     * @param x0 feature 0
     * @param x1 feature 1
     * @param x2 feature 2
     * @return the rule the example learns: 1 when {@code x0 + 2 x1 - x2 > 1}, else 0
     */
    public static float label(final float x0, final float x1, final float x2)
    {
        return x0 + 2 * x1 - x2 > 1 ? 1 : 0;
    }
}
