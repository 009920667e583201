/**
 * Who may call what: Triton's restricted APIs ({@code --http-restricted-api}, {@code --grpc-restricted-protocol}),
 * parsed with Triton's syntax and messages, and the categories of endpoints they restrict.
 */
package io.ingot.server.access;
