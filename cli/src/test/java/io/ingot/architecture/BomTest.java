package io.ingot.architecture;

import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import javax.xml.parsers.DocumentBuilderFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Keeps {@code bom/pom.xml} true to the build: it lists every module that is installed (every one but those that
 * skip installation: benchmarks, concurrency-tests, deploy) at the project's version, its other entries carry the
 * parent pom's versions, and every module names its jar's {@code Automatic-Module-Name} ({@code ingot.module.name}),
 * validly and uniquely.
 */
class BomTest
{
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Pattern MODULE_NAME = Pattern.compile("io\\.ingot\\.[a-z][a-z0-9]*(\\.[a-z][a-z0-9]*)*");
    private static final Pattern PROPERTY = Pattern.compile("\\$\\{([^}]+)}");

    @Test
    void theBomListsEveryInstalledModuleAndTheParentsVersions() throws Exception
    {
        final Document parent = read(ROOT.resolve("pom.xml"));
        final Document bom = read(ROOT.resolve("bom/pom.xml"));
        final Map<String, String> parentProperties = properties(parent);
        final Map<String, String> bomProperties = properties(bom);
        final String version = child(parent.getDocumentElement(), "version");
        assertEquals(version, child(bom.getDocumentElement(), "version"), "the BOM's version is the project's");
        parentProperties.put("project.version", version);
        bomProperties.put("project.version", version);

        final Map<String, String> managedByBom = managed(bom, bomProperties);
        final Map<String, String> managedByParent = managed(parent, parentProperties);
        final List<String> problems = new ArrayList<>();
        for (final Element module : elements(parent.getDocumentElement(), "modules", "module"))
        {
            final Path dir = ROOT.resolve(module.getTextContent().trim());
            final Document pom = read(dir.resolve("pom.xml"));
            final String artifact = "io.ingot:" + child(pom.getDocumentElement(), "artifactId");
            final Map<String, String> own = properties(pom);
            if (artifact.equals("io.ingot:ingot-bom"))
            {
                continue;
            }
            if (!"true".equals(own.get("maven.install.skip")) && !version.equals(managedByBom.get(artifact)))
            {
                problems.add(artifact + " is installed but not in the BOM at " + version);
            }
            final String name = own.get("ingot.module.name");
            if (name == null || !MODULE_NAME.matcher(name).matches())
            {
                problems.add(dir.getFileName() + "/pom.xml sets no valid ingot.module.name (Automatic-Module-Name): "
                    + name);
            }
        }
        for (final Map.Entry<String, String> entry : managedByBom.entrySet())
        {
            if (!entry.getKey().startsWith("io.ingot:")
                && !entry.getValue().equals(managedByParent.get(entry.getKey())))
            {
                problems.add(entry.getKey() + " is " + entry.getValue() + " in the BOM but "
                    + managedByParent.get(entry.getKey()) + " in the parent pom");
            }
        }
        assertTrue(problems.isEmpty(), String.join("\n", problems));
    }

    @Test
    void everyModuleNameIsUnique() throws Exception
    {
        final Set<String> names = new HashSet<>();
        for (final Element module : elements(read(ROOT.resolve("pom.xml")).getDocumentElement(), "modules", "module"))
        {
            final String name = properties(read(ROOT.resolve(module.getTextContent().trim()).resolve("pom.xml")))
                .get("ingot.module.name");
            assertTrue(name == null || names.add(name), "two modules are named " + name);
        }
    }

    private static Map<String, String> managed(final Document pom, final Map<String, String> properties)
    {
        final Map<String, String> versions = new HashMap<>();
        for (final Element dependency : elements(pom.getDocumentElement(), "dependencyManagement", "dependencies",
            "dependency"))
        {
            final String classifier = child(dependency, "classifier");
            versions.put(child(dependency, "groupId") + ":" + child(dependency, "artifactId")
                + (classifier == null ? "" : ":" + classifier), resolve(child(dependency, "version"), properties));
        }
        return versions;
    }

    private static String resolve(final String text, final Map<String, String> properties)
    {
        final Matcher matcher = PROPERTY.matcher(text);
        final StringBuilder resolved = new StringBuilder();
        while (matcher.find())
        {
            matcher.appendReplacement(resolved, Matcher.quoteReplacement(properties.getOrDefault(matcher.group(1),
                matcher.group())));
        }
        return matcher.appendTail(resolved).toString();
    }

    private static Map<String, String> properties(final Document pom)
    {
        final Map<String, String> properties = new HashMap<>();
        for (final Element block : elements(pom.getDocumentElement(), "properties"))
        {
            final NodeList children = block.getChildNodes();
            for (int i = 0; i < children.getLength(); i++)
            {
                if (children.item(i) instanceof Element property)
                {
                    properties.put(property.getTagName(), property.getTextContent().trim());
                }
            }
        }
        return properties;
    }

    private static List<Element> elements(final Element from, final String... path)
    {
        List<Element> level = List.of(from);
        for (final String name : path)
        {
            final List<Element> next = new ArrayList<>();
            for (final Element element : level)
            {
                final NodeList children = element.getChildNodes();
                for (int i = 0; i < children.getLength(); i++)
                {
                    if (children.item(i) instanceof Element child && child.getTagName().equals(name))
                    {
                        next.add(child);
                    }
                }
            }
            level = next;
        }
        return level;
    }

    private static String child(final Element element, final String name)
    {
        final List<Element> found = elements(element, name);
        return found.isEmpty() ? null : found.getFirst().getTextContent().trim();
    }

    private static Document read(final Path pom) throws Exception
    {
        assertTrue(Files.isRegularFile(pom), pom + " is missing");
        return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(pom.toFile());
    }
}
