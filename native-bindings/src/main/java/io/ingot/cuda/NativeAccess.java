package io.ingot.cuda;

import java.lang.foreign.MemorySegment;

/**
 * Whether this JVM lets Ingot call native code, asked once before anything else does. Native access is the one JVM
 * flag Ingot needs: the CUDA, libc and engine bindings call restricted methods of {@code java.lang.foreign}. Java 25
 * allows them without {@code --enable-native-access} (with a warning that names the flag); a JVM started with
 * {@code --illegal-native-access=deny} refuses them, and the first refusal would surface as an
 * {@code ExceptionInInitializerError} deep inside some binding's class. {@link #requireAllowed()} turns that into one
 * message that names the flag to add. Stateless and thread-safe.
 */
public final class NativeAccess
{
    private NativeAccess()
    {
    }

    /**
     * Calls one harmless restricted method ({@code MemorySegment.reinterpret}) from this module: where the JVM warns,
     * it prints its warning now (naming the flag), where it denies, this throws.
     *
     * @throws IllegalStateException naming {@link #flag()} when the JVM denies native access to this module
     */
    public static void requireAllowed()
    {
        try
        {
            MemorySegment.NULL.reinterpret(0);
        }
        catch (final IllegalCallerException denied)
        {
            throw new IllegalStateException("Ingot needs native access (java.lang.foreign), and this JVM denies it ("
                + denied.getMessage() + "): start java with " + flag()
                + (NativeAccess.class.getModule().isNamed() ? ", and the same for the Ingot backends' modules" : "")
                + ". It is the only JVM flag Ingot needs.", denied);
        }
    }

    /** @return the flag that allows native access to this module: {@code --enable-native-access=ALL-UNNAMED} on the
     *          class path, the module's name on the module path */
    public static String flag()
    {
        final Module module = NativeAccess.class.getModule();
        return "--enable-native-access=" + (module.isNamed() ? module.getName() : "ALL-UNNAMED");
    }
}
