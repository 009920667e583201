package io.ingot.server.http;

import io.netty.buffer.ByteBuf;

/**
 * A request body whose memory is counted in the {@link RequestBodyBudget}: when its last reference is released, the
 * reservation goes back to the budget. Derived buffers ({@code slice}, {@code duplicate}) share its memory and must
 * not outlive it; the frontend releases bodies only through this buffer or the request that holds it.
 */
final class BudgetedByteBuf extends FreeingByteBuf
{
    private final RequestBodyBudget budget;
    private final long reserved;

    /**
     * @param body     the body (its reference passes to this buffer)
     * @param budget   the budget it is counted in
     * @param reserved the bytes it reserved there
     */
    BudgetedByteBuf(final ByteBuf body, final RequestBodyBudget budget, final long reserved)
    {
        super(body);
        this.budget = budget;
        this.reserved = reserved;
    }

    @Override
    void freed()
    {
        budget.release(reserved);
    }
}
