package io.ingot.server.ipc;

/**
 * Counters of an {@link IpcServer} since it started, for monitoring and tests.
 *
 * @param activeClients      client slots served now
 * @param clientsActivated   registrations accepted
 * @param clientsReclaimed   slots taken back from clients that left or died
 * @param clientsFaulted     slots the server stopped serving (corrupt ring, heartbeat timeout)
 * @param requestsReceived   INFER frames read
 * @param requestsRejected   INFER frames answered with an error before reaching the core (invalid frame)
 * @param responsesSent      RESPONSE frames written
 * @param responsesDropped   responses not written because their client left, died or stopped reading
 * @param framesDropped      frames neither answered nor served (unknown type, too short for a correlation id)
 * @param releasesAccepted   outputs freed by RELEASE frames
 * @param releasesRejected   RELEASE entries that named no live output allocation of the client
 * @param idleSleeps         times the IPC thread, finding no work, slept on its doorbell (not in SPINNING mode)
 * @param doorbellWakeUps    of those sleeps, the ones a client's (or the core's) ring ended before the timeout
 */
public record IpcServerStatistics(int activeClients, long clientsActivated, long clientsReclaimed, long clientsFaulted,
    long requestsReceived, long requestsRejected, long responsesSent, long responsesDropped, long framesDropped,
    long releasesAccepted, long releasesRejected, long idleSleeps, long doorbellWakeUps)
{
}
