package io.ingot.pytorch;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipException;
import java.util.zip.ZipFile;

/**
 * Reads what a TorchScript archive says about its module without libtorch: the root class (the first global of
 * {@code data.pkl}) and its {@code forward}'s signature (from {@code code/<qualifier>.py}, the source libtorch
 * compiles on load). The layout is PyTorch's: every entry inside one folder, the first entry naming it
 * ({@code PyTorchStreamReader::init}); a class {@code a.b.C} is defined in {@code code/a/b.py}
 * ({@code findSourceInArchiveFromQualifier}).
 *
 * <p>Stateless; safe from any thread.
 */
final class TorchScriptArchive
{
    /** Bounds what is read into memory from an archive (the code file and data.pkl's first bytes). */
    private static final int MAX_CODE_BYTES = 16 << 20;
    private static final int PICKLE_HEAD_BYTES = 4096;

    /** A file that is not a TorchScript archive at all. */
    static final class NotAnArchiveException extends Exception
    {
        private static final long serialVersionUID = 1L;

        NotAnArchiveException(final String message)
        {
            super(message);
        }
    }

    /** An archive whose code does not have the shape {@code torch.jit.save} writes. */
    static final class UnreadableCodeException extends Exception
    {
        private static final long serialVersionUID = 1L;

        UnreadableCodeException(final String message)
        {
            super(message);
        }
    }

    private TorchScriptArchive()
    {
    }

    /**
     * @param file a {@code model.pt}
     * @return its root module's {@code forward} signature
     * @throws NotAnArchiveException  when the file is not a TorchScript zip archive (the message says what it is)
     * @throws UnreadableCodeException when the archive is one, but its code is not laid out as expected
     * @throws IOException            when the file cannot be read
     */
    static ForwardSignature readSignature(final Path file)
        throws NotAnArchiveException, UnreadableCodeException, IOException
    {
        checkNotTorchSave(file);
        final ZipFile zip;
        try
        {
            zip = new ZipFile(file.toFile());
        }
        catch (final ZipException e)
        {
            throw new NotAnArchiveException("it is not a zip archive (" + e.getMessage() + "); torch.jit.save writes"
                + " TorchScript models as zip archives");
        }
        try (zip)
        {
            final String prefix = archiveFolder(zip);
            final ZipEntry data = zip.getEntry(prefix + "data.pkl");
            if (data == null)
            {
                if (zip.getEntry(prefix + "model.json") != null)
                {
                    throw new UnreadableCodeException("it is a pre-1.4 TorchScript archive (model.json)");
                }
                throw new NotAnArchiveException("the archive has no " + prefix + "data.pkl, so it is not a TorchScript"
                    + " module (torch.jit.save writes one)");
            }
            final String[] root = rootClass(read(zip, data, PICKLE_HEAD_BYTES));
            final String codePath = prefix + "code/" + root[0].replace('.', '/') + ".py";
            final ZipEntry code = zip.getEntry(codePath);
            if (code == null)
            {
                throw new UnreadableCodeException("the archive has no " + codePath + " defining " + root[0] + "."
                    + root[1]);
            }
            final String source = new String(read(zip, code, MAX_CODE_BYTES), StandardCharsets.UTF_8);
            return parseForward(source, root[1]);
        }
    }

    /** {@code torch.save} pickles start with the pickle protocol marker, not a zip header. */
    private static void checkNotTorchSave(final Path file) throws IOException, NotAnArchiveException
    {
        try (InputStream in = Files.newInputStream(file))
        {
            final byte[] head = in.readNBytes(2);
            if (head.length == 2 && (head[0] & 0xff) == 0x80 && head[1] == 0x02)
            {
                throw new NotAnArchiveException("it was written by torch.save(), but torch::jit::load() can only load"
                    + " files produced by torch.jit.save() (save a scripted or traced module: torch.jit.save("
                    + "torch.jit.script(model), 'model.pt'))");
            }
        }
    }

    private static String archiveFolder(final ZipFile zip) throws NotAnArchiveException
    {
        final Enumeration<? extends ZipEntry> entries = zip.entries();
        if (!entries.hasMoreElements())
        {
            throw new NotAnArchiveException("the archive does not contain any files");
        }
        final String first = entries.nextElement().getName();
        final int slash = first.indexOf('/');
        if (slash < 0)
        {
            throw new NotAnArchiveException("file in archive is not in a subdirectory: " + first);
        }
        return first.substring(0, slash + 1);
    }

    private static byte[] read(final ZipFile zip, final ZipEntry entry, final int limit) throws IOException
    {
        try (InputStream in = zip.getInputStream(entry))
        {
            return in.readNBytes(limit);
        }
    }

    /**
     * The module and name of the first global of a protocol-2 pickle: for {@code data.pkl}, the root module's class
     * ({@code PROTO 2, GLOBAL '__torch__' 'Model', EMPTY_TUPLE, NEWOBJ, ...}).
     */
    static String[] rootClass(final byte[] pickle) throws UnreadableCodeException
    {
        if (pickle.length < 3 || (pickle[0] & 0xff) != 0x80 || pickle[1] != 2 || pickle[2] != 'c')
        {
            throw new UnreadableCodeException("data.pkl does not start with the module's class (protocol 2 GLOBAL)");
        }
        final String text = new String(pickle, 3, pickle.length - 3, StandardCharsets.US_ASCII);
        final int end1 = text.indexOf('\n');
        final int end2 = end1 < 0 ? -1 : text.indexOf('\n', end1 + 1);
        if (end2 < 0)
        {
            throw new UnreadableCodeException("data.pkl's first global is not terminated");
        }
        return new String[] {text.substring(0, end1), text.substring(end1 + 1, end2)};
    }

    /**
     * Finds {@code forward} of {@code class <className>(Module):} in TorchScript source as {@code torch.jit.save}
     * prints it, and parses its arguments and return type.
     *
     * @param source    the code file
     * @param className the class
     * @return the signature, without {@code self}
     * @throws UnreadableCodeException when the class or its {@code forward} is not found or cannot be parsed
     */
    static ForwardSignature parseForward(final String source, final String className) throws UnreadableCodeException
    {
        final int classStart = findLineStart(source, "class " + className + "(", 0);
        if (classStart < 0)
        {
            throw new UnreadableCodeException("the code does not define class " + className);
        }
        final int classEnd = nextTopLevelLine(source, classStart);
        final String body = source.substring(classStart, classEnd);
        int def = body.indexOf("\n  def forward(");
        if (def < 0)
        {
            throw new UnreadableCodeException("class " + className + " has no forward method");
        }
        def += "\n  def forward(".length();
        int depth = 1;
        int i = def;
        while (i < body.length() && depth > 0)
        {
            final char c = body.charAt(i++);
            if (c == '(' || c == '[')
            {
                depth++;
            }
            else if (c == ')' || c == ']')
            {
                depth--;
            }
        }
        if (depth != 0)
        {
            throw new UnreadableCodeException("forward's argument list is not closed");
        }
        final String parameters = body.substring(def, i - 1);
        final String rest = body.substring(i).stripLeading();
        String returnType = "Tensor";
        if (rest.startsWith("->"))
        {
            final int colon = rest.indexOf(":\n");
            if (colon < 0)
            {
                throw new UnreadableCodeException("forward's return type is not terminated");
            }
            returnType = rest.substring(2, colon).strip();
        }
        final List<ForwardSignature.Argument> arguments = new ArrayList<>();
        final List<String> pieces = ForwardSignature.splitTopLevel(parameters, ',');
        for (int p = 0; p < pieces.size(); p++)
        {
            final String piece = ForwardSignature.splitTopLevel(pieces.get(p), '=').getFirst();
            final int colon = piece.indexOf(':');
            final String name = (colon < 0 ? piece : piece.substring(0, colon)).strip();
            final String type = colon < 0 ? "" : piece.substring(colon + 1).strip();
            if (p == 0 && name.equals("self"))
            {
                continue;
            }
            arguments.add(new ForwardSignature.Argument(name, type));
        }
        return new ForwardSignature(arguments, returnType);
    }

    private static int findLineStart(final String source, final String prefix, final int from)
    {
        int at = from;
        while (at >= 0 && at < source.length())
        {
            if (source.startsWith(prefix, at))
            {
                return at;
            }
            final int newline = source.indexOf('\n', at);
            at = newline < 0 ? -1 : newline + 1;
        }
        return -1;
    }

    /** The start of the next line after {@code from}'s line that is not indented (or the end of the source). */
    private static int nextTopLevelLine(final String source, final int from)
    {
        int newline = source.indexOf('\n', from);
        while (newline >= 0 && newline + 1 < source.length())
        {
            final char next = source.charAt(newline + 1);
            if (next != ' ' && next != '\n' && next != '\t')
            {
                return newline + 1;
            }
            newline = source.indexOf('\n', newline + 1);
        }
        return source.length();
    }
}
