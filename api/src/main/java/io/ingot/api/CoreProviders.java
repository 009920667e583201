package io.ingot.api;

import java.util.Iterator;
import java.util.ServiceLoader;

/** Finds the {@link InferenceCoreProvider} once, on first use of {@link InferenceCore#open}. */
final class CoreProviders
{
    private static final InferenceCoreProvider PROVIDER = load();

    private CoreProviders()
    {
    }

    static InferenceCoreProvider provider()
    {
        if (PROVIDER == null)
        {
            throw new IllegalStateException("no Ingot core on the class path: InferenceCore.open needs the "
                + "io.ingot:ingot-runtime module, which registers its provider in "
                + "META-INF/services/" + InferenceCoreProvider.class.getName());
        }
        return PROVIDER;
    }

    private static InferenceCoreProvider load()
    {
        final Iterator<InferenceCoreProvider> found =
            ServiceLoader.load(InferenceCoreProvider.class, InferenceCoreProvider.class.getClassLoader()).iterator();
        return found.hasNext() ? found.next() : null;
    }
}
