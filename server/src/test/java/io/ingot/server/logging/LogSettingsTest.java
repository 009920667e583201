package io.ingot.server.logging;

import io.ingot.api.InferenceException;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.logging.StreamHandler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link LogSettings} on a logger of its own (not the process's root), with Triton's semantics (common
 * src/logging.cc; server src/http_server.cc HandleLogging): each of error, warning and info switched on its own, a
 * verbose level, the two line formats.
 */
class LogSettingsTest
{
    /** A logger with one handler writing into a buffer, as the root logger has its console handler. */
    private record Captured(Logger logger, ByteArrayOutputStream out, StreamHandler handler)
    {
        static Captured create(final String name)
        {
            final Logger logger = Logger.getLogger("io.ingot.test.logsettings." + name);
            logger.setUseParentHandlers(false);
            final ByteArrayOutputStream out = new ByteArrayOutputStream();
            final StreamHandler handler = new StreamHandler(out, new java.util.logging.SimpleFormatter());
            logger.addHandler(handler);
            return new Captured(logger, out, handler);
        }

        String text()
        {
            handler.flush();
            return out.toString(StandardCharsets.UTF_8);
        }
    }

    @Test
    void eachLevelIsSwitchedOnItsOwnAndVerboseAddsDebug()
    {
        final Captured log = Captured.create("levels");
        final LogSettings settings = new LogSettings(log.logger());
        settings.update(new LogSettings.Change(false, null, null, 1, null));
        log.logger().severe("an error");
        log.logger().warning("a warning");
        log.logger().info("some info");
        log.logger().fine("a debug line");
        log.logger().finer("a trace line");
        final String text = log.text();
        assertTrue(text.contains("an error") && text.contains("a warning") && text.contains("a debug line"), text);
        assertFalse(text.contains("some info"), "log_info false drops info but keeps what is above and below: "
            + text);
        assertFalse(text.contains("a trace line"), "verbose level 1 is FINE, not FINER: " + text);
        final LogSettings.Snapshot now = settings.current();
        assertEquals(new LogSettings.Snapshot("", false, true, true, 1, LogSettings.Format.DEFAULT), now);
    }

    @Test
    void formatsAreTritons()
    {
        final Captured log = Captured.create("formats");
        final LogSettings settings = new LogSettings(log.logger());
        settings.update(LogSettings.Change.NONE);
        log.logger().warning("first");
        settings.update(new LogSettings.Change(null, null, null, null, LogSettings.Format.ISO8601));
        log.logger().severe("second");
        final String[] lines = log.text().split("\\R");
        final long pid = ProcessHandle.current().pid();
        // I/W/E + MMDD hh:mm:ss.uuuuuu, then the pid and the source, then "] ".
        assertTrue(lines[0].matches("W\\d{4} \\d{2}:\\d{2}:\\d{2}\\.\\d{6} " + pid + " LogSettingsTest\\] first"),
            lines[0]);
        assertTrue(lines[1].matches("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}Z E " + pid
            + " LogSettingsTest\\] second"), lines[1]);
    }

    @Test
    void everythingOffLogsNothingAndANegativeVerboseLevelIsRefused()
    {
        final Captured log = Captured.create("off");
        final LogSettings settings = new LogSettings(log.logger());
        settings.update(new LogSettings.Change(false, false, false, 0, null));
        log.logger().log(Level.SEVERE, "nothing");
        assertEquals("", log.text());
        assertThrows(InferenceException.class,
            () -> settings.update(new LogSettings.Change(null, null, null, -1, null)));
        assertFalse(settings.current().error(), "a refused change changes nothing");
    }

    @Test
    void aLogFileReceivesTheLines() throws Exception
    {
        final Logger logger = Logger.getLogger("io.ingot.test.logsettings.file");
        logger.setUseParentHandlers(false);
        final Path file = Files.createTempFile("ingot-log", ".txt");
        try
        {
            final LogSettings settings = new LogSettings(logger);
            assertEquals(file.toString(), settings.logFile(file).logFile());
            logger.info("to the file");
            assertTrue(Files.readString(file).contains("] to the file"), Files.readString(file));
        }
        finally
        {
            for (final var handler : logger.getHandlers())
            {
                logger.removeHandler(handler);
                handler.close();
            }
            Files.deleteIfExists(file);
        }
    }
}
