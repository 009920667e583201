package io.ingot.cuda;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.function.Supplier;

/**
 * Method handles that stand in for downcalls whose library could not be loaded (or lacks the symbol): they have the
 * downcall's exact type, so {@code invokeExact} call sites stay as they are, and every call throws a fresh error from
 * the supplier. Bindings keep their handles in {@code static final} fields; a holder class whose initialiser threw
 * would fail every later use with a bare {@link NoClassDefFoundError}, while these handles keep the loader's reason
 * on every call and cost nothing where the library did load. Stateless and thread-safe.
 */
public final class ThrowingHandles
{
    private static final MethodHandle RAISE;

    static
    {
        try
        {
            RAISE = MethodHandles.lookup().findStatic(ThrowingHandles.class, "raise",
                MethodType.methodType(void.class, Supplier.class));
        }
        catch (final ReflectiveOperationException impossible)
        {
            throw new ExceptionInInitializerError(impossible);
        }
    }

    private ThrowingHandles()
    {
    }

    /**
     * @param type  the downcall's type
     * @param error makes what each call throws: an unchecked exception or an error
     * @return a handle of exactly {@code type} that throws on every call
     */
    public static MethodHandle of(final MethodType type, final Supplier<? extends Throwable> error)
    {
        // foldArguments runs the zero-argument, void "raise" first; it always throws, so the target (a handle that
        // returns the zero value of the return type) only exists to give the result the exact downcall type.
        return MethodHandles.foldArguments(MethodHandles.empty(type), RAISE.bindTo(error));
    }

    @SuppressWarnings("unused") // called through RAISE
    private static void raise(final Supplier<? extends Throwable> error)
    {
        final Throwable thrown = error.get();
        if (thrown instanceof RuntimeException unchecked)
        {
            throw unchecked;
        }
        if (thrown instanceof Error fatal)
        {
            throw fatal;
        }
        throw new IllegalStateException(thrown);
    }
}
