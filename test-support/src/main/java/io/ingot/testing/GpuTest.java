package io.ingot.testing;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a test class that needs a usable CUDA device. It carries the {@code gpu} tag, which the build excludes by
 * default ({@code ingot.excludedGroups}) and {@code tools/gpu-check.sh} selects; where the tag is selected but no
 * device is usable, every test of the class is aborted with the reason device discovery gave, and the reason is
 * printed, so a GPU run on the wrong machine says why it verified nothing.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Tag(GpuTest.TAG)
@ExtendWith(GpuAvailability.class)
public @interface GpuTest
{
    /** The JUnit tag of GPU tests. */
    String TAG = "gpu";
}
