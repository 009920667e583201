package io.ingot.trt.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Writes plans in the TensorRT shim test double's text format ({@code fake_trt_shim.c} documents it). */
public final class FakePlan
{
    /** The first line every fake plan needs. */
    public static final String MAGIC = "ingot-fake-trt-plan 1";

    private FakePlan()
    {
    }

    /**
     * @param lines the directives after the magic line
     * @return the plan text
     */
    public static String text(final String... lines)
    {
        return MAGIC + "\n" + String.join("\n", lines) + "\n";
    }

    /**
     * @param file  where to write
     * @param lines the directives after the magic line
     * @return {@code file}
     * @throws IOException when it cannot be written
     */
    public static Path write(final Path file, final String... lines) throws IOException
    {
        Files.createDirectories(file.getParent());
        Files.writeString(file, text(lines), StandardCharsets.UTF_8);
        return file;
    }
}
