package io.ingot.config;

import com.google.protobuf.DynamicMessage;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.TextFormat;
import com.google.protobuf.TextFormatParseInfoTree;
import com.google.protobuf.TextFormatParseLocation;
import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.SchedulingPolicy;

import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads {@code config.pbtxt} text into a {@link ModelConfig}, the way Triton does: protobuf text format against
 * Triton's schema, a field set twice or two members of a oneof being errors.
 *
 * <p>In addition it accepts the tutorial form {@code scheduling_policy { priority { ... } }} and maps it onto
 * Triton's {@code dynamic_batching} priority fields ({@link TutorialPriorityMapping} states the rules), so the result
 * is always a plain Triton {@code ModelConfig}.
 *
 * <p>The parser only reads; it neither completes nor normalizes nor validates (see {@link ConfigNormalizer} and
 * {@link ConfigValidator}).
 */
public final class ModelConfigParser
{
    /** Largest configuration file read; real ones are kilobytes, this only bounds a hostile or broken file. */
    public static final long MAX_CONFIG_BYTES = 16L << 20;

    private static final String UNKNOWN_FIELDS_HEADER = "Input contains unknown fields";
    private static final Pattern UNKNOWN_FIELD_LINE = Pattern.compile("\\s*(\\d+):(\\d+):\\s*(.+)\\.([^.\\s]+)\\s*");

    private ModelConfigParser()
    {
    }

    /**
     * Reads and parses a configuration file (UTF-8).
     *
     * @param file the {@code config.pbtxt} (or {@code configs/<name>.pbtxt}) to read
     * @return the configuration as written, with the tutorial form mapped
     * @throws ConfigException NOT_FOUND when the file does not exist; INVALID_ARG when it is too large, not UTF-8 or
     *                         does not parse (the message names file, line, column and reason); INTERNAL on other I/O
     *                         failures
     */
    public static ModelConfig parse(final Path file) throws ConfigException
    {
        final String text;
        try
        {
            final long size = Files.size(file);
            if (size > MAX_CONFIG_BYTES)
            {
                throw new ConfigException(ConfigException.Category.INVALID_ARG,
                    "model configuration is " + size + " bytes, more than the " + MAX_CONFIG_BYTES + " allowed",
                    file.toString(), 0, 0, null);
            }
            text = Files.readString(file, StandardCharsets.UTF_8);
        }
        catch (final NoSuchFileException e)
        {
            throw new ConfigException(ConfigException.Category.NOT_FOUND,
                "model configuration file '" + file + "' does not exist", e);
        }
        catch (final CharacterCodingException e)
        {
            throw new ConfigException(ConfigException.Category.INVALID_ARG, "model configuration is not valid UTF-8",
                file.toString(), 0, 0, e);
        }
        catch (final IOException e)
        {
            throw new ConfigException(ConfigException.Category.INTERNAL,
                "failed to read model configuration '" + file + "': " + e, e);
        }
        return parse(text, file.toString());
    }

    /**
     * Parses configuration text.
     *
     * @param text   the text of a {@code config.pbtxt}
     * @param source the name errors give for the text (usually its file path)
     * @return the configuration as written, with the tutorial form mapped
     * @throws ConfigException INVALID_ARG when the text does not parse or the tutorial form is inconsistent; the
     *                         message names {@code source}, line, column and reason
     */
    public static ModelConfig parse(final String text, final String source) throws ConfigException
    {
        final TextFormatParseInfoTree.Builder positions = TextFormatParseInfoTree.builder();
        final TextFormat.Parser parser = TextFormat.Parser.newBuilder()
            .setSingularOverwritePolicy(TextFormat.Parser.SingularOverwritePolicy.FORBID_SINGULAR_OVERWRITES)
            .setParseInfoTreeBuilder(positions)
            .build();
        final DynamicMessage.Builder extended = DynamicMessage.newBuilder(ExtendedConfigSchema.MODEL_CONFIG);
        try
        {
            parser.merge(text, extended);
        }
        catch (final TextFormat.ParseException e)
        {
            throw located(e, source);
        }

        final boolean hasTutorialForm = extended.hasField(ExtendedConfigSchema.SCHEDULING_POLICY);
        final Message tutorialBlock = (Message) extended.getField(ExtendedConfigSchema.SCHEDULING_POLICY);
        extended.clearField(ExtendedConfigSchema.SCHEDULING_POLICY);
        final ModelConfig config;
        final SchedulingPolicy policy;
        try
        {
            // Every remaining field has ModelConfig's number and type, so the bytes are a ModelConfig.
            config = ModelConfig.parseFrom(extended.build().toByteString());
            policy = SchedulingPolicy.parseFrom(tutorialBlock.toByteString());
        }
        catch (final InvalidProtocolBufferException e)
        {
            throw new ConfigException(ConfigException.Category.INTERNAL,
                "extended config schema is not wire-compatible with ModelConfig (a bug): " + e.getMessage(), source,
                0, 0, e);
        }
        if (!hasTutorialForm)
        {
            return config;
        }
        final TextFormatParseLocation where =
            positions.build().getLocation(ExtendedConfigSchema.SCHEDULING_POLICY, 0);
        return new TutorialPriorityMapping(source, where.getLine() + 1, where.getColumn() + 1).apply(config, policy);
    }

    private static ConfigException located(final TextFormat.ParseException e, final String source)
    {
        final String message = e.getMessage() == null ? "malformed text" : e.getMessage();
        final int line = Math.max(e.getLine(), 0);
        final int column = Math.max(e.getColumn(), 0);
        final String prefix = e.getLine() + ":" + e.getColumn() + ": ";
        final String reason = message.startsWith(prefix) ? message.substring(prefix.length()) : message;
        return ConfigException.unparsable(readableReason(reason), source, line, column, e);
    }

    /**
     * Protobuf reports unknown fields as a header plus one {@code line:column:\tType.field} line each; this turns
     * them into one clause per field that says which message lacks which field, as Triton's (C++) parser words it.
     */
    private static String readableReason(final String reason)
    {
        if (!reason.startsWith(UNKNOWN_FIELDS_HEADER))
        {
            return reason;
        }
        final StringBuilder readable = new StringBuilder();
        final String[] lines = reason.split("\n");
        for (int i = 1; i < lines.length; i++)
        {
            final Matcher unknown = UNKNOWN_FIELD_LINE.matcher(lines[i]);
            if (!unknown.matches())
            {
                return reason;
            }
            if (!readable.isEmpty())
            {
                readable.append("; ");
            }
            readable.append("message type \"").append(unknown.group(3)).append("\" has no field named \"")
                .append(unknown.group(4)).append('"');
            if (i > 1)
            {
                readable.append(" (line ").append(unknown.group(1)).append(", column ").append(unknown.group(2))
                    .append(')');
            }
        }
        return readable.isEmpty() ? reason : readable.toString();
    }
}
