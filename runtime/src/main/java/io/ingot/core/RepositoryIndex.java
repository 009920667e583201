package io.ingot.core;

import io.ingot.api.ModelIndexEntry;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The repository index (see {@link io.ingot.api.InferenceCore#repositoryIndex}), as Triton's: every model the
 * repositories hold or the core knows, by name; a serving model's versions with their state, a failed or unloaded
 * one's with its reason, a name found in two repositories as unavailable, and a model never loaded with no state.
 * Reads the model table without the model-control lock (a change in progress shows before or after). Thread-safe.
 */
final class RepositoryIndex
{
    private final Map<String, ModelSlot> models;
    private final List<Path> repositories;

    /**
     * @param models       the core's model table
     * @param repositories the model repositories
     */
    RepositoryIndex(final Map<String, ModelSlot> models, final List<Path> repositories)
    {
        this.models = models;
        this.repositories = repositories;
    }

    /**
     * @param readyOnly only the ready versions
     * @return the entries, by name
     */
    List<ModelIndexEntry> index(final boolean readyOnly)
    {
        final RepositorySnapshot listing = RepositorySnapshot.listOrEmpty(repositories);
        final TreeMap<String, ModelSlot> sorted = new TreeMap<>(models);
        final Set<String> names = new TreeSet<>(sorted.keySet());
        names.addAll(listing.names());
        final List<ModelIndexEntry> index = new ArrayList<>();
        for (final String name : names)
        {
            final ModelSlot slot = sorted.get(name);
            if (listing.isDuplicate(name) && (slot == null || !slot.serving()))
            {
                if (!readyOnly)
                {
                    index.add(new ModelIndexEntry(name, "", ModelSlot.UNAVAILABLE, RepositorySnapshot.DUPLICATE));
                }
            }
            else if (slot == null)
            {
                if (!readyOnly)
                {
                    index.add(new ModelIndexEntry(name, "", "", ""));
                }
            }
            else if (!slot.serving())
            {
                if (!readyOnly)
                {
                    addUnavailable(index, slot);
                }
            }
            else
            {
                for (final Map.Entry<Long, ServedVersion> version : slot.versions().entrySet())
                {
                    final boolean ready = version.getValue().isReady();
                    if (!readyOnly || ready)
                    {
                        index.add(new ModelIndexEntry(name, String.valueOf(version.getKey()),
                            ready ? ModelSlot.READY : ModelSlot.UNLOADING, ""));
                    }
                }
            }
        }
        return index;
    }

    private static void addUnavailable(final List<ModelIndexEntry> index, final ModelSlot slot)
    {
        if (slot.unavailable().isEmpty())
        {
            index.add(new ModelIndexEntry(slot.name(), "", slot.state(), slot.reason()));
            return;
        }
        slot.unavailable().forEach((version, reason) ->
            index.add(new ModelIndexEntry(slot.name(), String.valueOf(version), ModelSlot.UNAVAILABLE, reason)));
    }
}
