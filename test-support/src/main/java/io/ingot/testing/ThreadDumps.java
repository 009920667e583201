package io.ingot.testing;

import java.util.Map;
import java.util.TreeMap;

/** What a test prints when something hangs: where the runtime's threads are, so the failure explains itself. */
public final class ThreadDumps
{
    /** Frames shown per thread: enough to see the wait and who called it. */
    private static final int FRAMES = 14;

    private ThreadDumps()
    {
    }

    /**
     * @param namePrefix the prefix of the threads to show (Ingot's are named {@code ingot-...})
     * @return each matching thread's name, state and top frames, sorted by name
     */
    public static String of(final String namePrefix)
    {
        final Map<String, String> byName = new TreeMap<>();
        Thread.getAllStackTraces().forEach((thread, stack) ->
        {
            if (!thread.getName().startsWith(namePrefix))
            {
                return;
            }
            final StringBuilder text = new StringBuilder("\n  ").append(thread.getName()).append(" (")
                .append(thread.getState()).append(')');
            for (int i = 0; i < Math.min(FRAMES, stack.length); i++)
            {
                text.append("\n      at ").append(stack[i]);
            }
            byName.put(thread.getName() + '#' + thread.threadId(), text.toString());
        });
        return String.join("", byName.values());
    }
}
