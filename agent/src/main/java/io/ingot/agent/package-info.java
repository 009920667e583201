/**
 * The one duty-cycle shape of every Ingot thread, in the manner of Agrona's agents: an {@link io.ingot.agent.Agent}
 * run by an {@link io.ingot.agent.AgentRunner}, an {@link io.ingot.agent.IdleStrategy} for the passes without work,
 * and a {@link io.ingot.agent.Bell} on which an idle thread sleeps and by which a waker that has published work rouses
 * it — a system call only when the thread is known to sleep. In process the bell parks a thread
 * ({@link io.ingot.agent.ThreadBell}); across processes it is a futex in shared memory ({@code io.ingot.ipc.Doorbell},
 * in the ipc module). The module depends on nothing: the core's threads, the IPC server's thread, the IPC layout's
 * doorbells and the Java IPC client's waits all build on it.
 */
package io.ingot.agent;
