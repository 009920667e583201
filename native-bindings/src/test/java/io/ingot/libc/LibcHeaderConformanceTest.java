package io.ingot.libc;

import io.ingot.headers.HeaderConformance;
import io.ingot.headers.HeaderConformance.Check;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Checks every constant, C type and {@code struct stat} member offset that {@link Posix} hard-codes against this
 * machine's glibc headers, compiled with gcc: the flags differ between x86-64 and aarch64 ({@code O_NOFOLLOW}) and
 * so does {@code struct stat}, so a wrong value would open or read the wrong thing silently.
 */
class LibcHeaderConformanceTest
{
    private static final String INCLUDES = """
        #define _GNU_SOURCE
        #include <errno.h>
        #include <fcntl.h>
        #include <sys/mman.h>
        #include <sys/stat.h>
        #include <sys/types.h>
        #include <unistd.h>
        """;

    @Test
    void everyHardCodedConstantAndStatMemberMatchesTheHeaders(@TempDir final Path work)
        throws IOException, InterruptedException
    {
        assumeTrue(Posix.isAvailable(), Posix.unavailableReason());
        final Optional<Path> compiler = HeaderConformance.findCompiler();
        if (compiler.isEmpty())
        {
            System.out.println("LibcHeaderConformanceTest: skipped: no C compiler (gcc or $CC) on PATH");
        }
        assumeTrue(compiler.isPresent(), "no C compiler: gcc (or $CC) is not on PATH");
        final List<Check> checks = HeaderConformance.checksOf(Posix.class);
        final List<String> mismatches = HeaderConformance.mismatches(checks, INCLUDES, List.of(), compiler.get(),
            work);
        System.out.println("LibcHeaderConformanceTest: checked " + checks.size() + " values against the glibc "
            + "headers of " + System.getProperty("os.arch"));
        assertTrue(mismatches.isEmpty(), mismatches.size() + " hard-coded values differ from the libc headers:\n  "
            + String.join("\n  ", mismatches));
        assertTrue(checks.size() > 40, "expected the flags, errno values, C types and struct stat, got "
            + checks.size() + " values");
    }
}
