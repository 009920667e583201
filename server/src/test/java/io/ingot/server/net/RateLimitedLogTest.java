package io.ingot.server.net;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.ResourceBundle;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Issue 14: accept failures and bad messages filled the log, one stack trace per occurrence. */
class RateLimitedLogTest
{
    /** A logger that keeps what it is given. */
    private static final class Recording implements System.Logger
    {
        final List<String> lines = new CopyOnWriteArrayList<>();
        final List<Throwable> thrown = new CopyOnWriteArrayList<>();

        @Override
        public String getName()
        {
            return "recording";
        }

        @Override
        public boolean isLoggable(final Level level)
        {
            return true;
        }

        @Override
        public void log(final Level level, final ResourceBundle bundle, final String message, final Throwable error)
        {
            lines.add(message);
            thrown.add(error);
        }

        @Override
        public void log(final Level level, final ResourceBundle bundle, final String format, final Object... params)
        {
            lines.add(format);
        }

        @Override
        public void log(final Level level, final Supplier<String> message)
        {
            lines.add(message.get());
        }
    }

    @Test
    void aFloodOfOccurrencesIsOneLinePerIntervalWithTheCountOfTheRest()
    {
        final Recording logger = new Recording();
        final AtomicLong now = new AtomicLong(1_000_000_000L);
        final RateLimitedLog log = new RateLimitedLog(logger, System.Logger.Level.WARNING, 200_000_000L, now::get);
        for (int i = 0; i < 100_000; i++)
        {
            log.log("refused connection " + i);
            now.addAndGet(1_000L);
        }
        assertEquals(1, logger.lines.size(), logger.lines.toString());
        assertEquals("refused connection 0", logger.lines.getFirst());
        now.addAndGet(250_000_000L);
        log.log("refused connection again");
        assertEquals(2, logger.lines.size());
        assertTrue(logger.lines.get(1).startsWith("refused connection again (and 99999 more like it in the last"),
            logger.lines.get(1));
        assertEquals(100_001, log.occurrences());
        assertTrue(logger.thrown.stream().allMatch(t -> t == null), "no stack traces");
    }

    @Test
    void theDefaultConnectionLimitFitsTheDescriptorLimit()
    {
        final int limit = ConnectionLimiter.defaultMax();
        assertTrue(limit >= 64 && limit <= ConnectionLimiter.DEFAULT_MAX, Integer.toString(limit));
        final ConnectionLimiter limiter = new ConnectionLimiter(2);
        assertTrue(limiter.tryOpen() && limiter.tryOpen());
        assertTrue(!limiter.tryOpen(), "a third connection over a limit of 2");
        limiter.closed();
        assertTrue(limiter.tryOpen());
        assertEquals(2, limiter.open());
    }
}
