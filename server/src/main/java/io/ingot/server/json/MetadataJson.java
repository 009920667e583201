package io.ingot.server.json;

import io.ingot.api.ModelIndexEntry;
import io.ingot.api.ModelMetadata;
import io.ingot.api.TensorMetadata;
import io.ingot.server.shm.SharedMemoryRegion;

import java.util.List;

/**
 * Renders the small JSON documents of the KServe v2 control endpoints: server and model metadata, the repository
 * index, shared-memory status and error bodies.
 */
public final class MetadataJson
{
    private MetadataJson()
    {
    }

    /**
     * {@code {"name":..,"version":..,"extensions":[..]}}.
     *
     * @param json       where to write
     * @param name       server name
     * @param version    server version
     * @param extensions supported protocol extensions
     */
    public static void serverMetadata(final JsonOutput json, final String name, final String version,
        final List<String> extensions)
    {
        json.beginObject().name("name").value(name).name("version").value(version).name("extensions").beginArray();
        for (final String extension : extensions)
        {
            json.value(extension);
        }
        json.endArray().endObject();
    }

    /**
     * {@code {"name","versions":["1"],"platform","inputs":[{"name","datatype","shape"}],"outputs":[..]}}.
     *
     * @param json     where to write
     * @param metadata the model's metadata
     */
    public static void modelMetadata(final JsonOutput json, final ModelMetadata metadata)
    {
        json.beginObject().name("name").value(metadata.name()).name("versions").beginArray();
        for (final String version : metadata.versions())
        {
            json.value(version);
        }
        json.endArray().name("platform").value(metadata.platform());
        json.name("inputs");
        tensors(json, metadata.inputs());
        json.name("outputs");
        tensors(json, metadata.outputs());
        json.endObject();
    }

    /**
     * {@code [{"name","version","state","reason"}]}, version and reason only when not empty.
     *
     * @param json    where to write
     * @param entries repository index rows
     */
    public static void repositoryIndex(final JsonOutput json, final List<ModelIndexEntry> entries)
    {
        json.beginArray();
        for (final ModelIndexEntry entry : entries)
        {
            json.beginObject().name("name").value(entry.name());
            if (entry.version() != null && !entry.version().isEmpty())
            {
                json.name("version").value(entry.version());
            }
            if (entry.state() != null && !entry.state().isEmpty())
            {
                json.name("state").value(entry.state());
            }
            if (entry.reason() != null && !entry.reason().isEmpty())
            {
                json.name("reason").value(entry.reason());
            }
            json.endObject();
        }
        json.endArray();
    }

    /**
     * {@code [{"name","key","offset","byte_size"}]}.
     *
     * @param json    where to write
     * @param regions registered regions
     */
    public static void sharedMemoryStatus(final JsonOutput json, final List<SharedMemoryRegion> regions)
    {
        json.beginArray();
        for (final SharedMemoryRegion region : regions)
        {
            json.beginObject()
                .name("name").value(region.name())
                .name("key").value(region.key())
                .name("offset").value(region.offset())
                .name("byte_size").value(region.byteSize())
                .endObject();
        }
        json.endArray();
    }

    /**
     * {@code {"error":"<message>"}}.
     *
     * @param json    where to write
     * @param message the error message
     */
    public static void error(final JsonOutput json, final String message)
    {
        json.beginObject().name("error").value(message == null ? "unknown error" : message).endObject();
    }

    private static void tensors(final JsonOutput json, final List<TensorMetadata> tensors)
    {
        json.beginArray();
        for (final TensorMetadata tensor : tensors)
        {
            json.beginObject().name("name").value(tensor.name()).name("datatype").value(tensor.dataType().wireName())
                .name("shape").beginArray();
            for (final Long dim : tensor.shape())
            {
                json.value(dim);
            }
            json.endArray().endObject();
        }
        json.endArray();
    }
}
