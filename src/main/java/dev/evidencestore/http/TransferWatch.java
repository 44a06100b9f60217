package dev.evidencestore.http;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.concurrent.ScheduledFuture;
import io.quarkus.arc.Arc;
import io.quarkus.arc.InstanceHandle;
import io.quarkus.vertx.http.runtime.CurrentVertxRequest;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.net.impl.ConnectionBase;
import io.vertx.ext.web.RoutingContext;
import org.jboss.logging.Logger;

import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Ends a connection whose client holds it without moving: request headers not complete in time (trickled or never
 * sent), a request body that stops arriving while the service waits for it, or a response whose bytes the client
 * stops accepting. The first in every connection's pipeline, so it sees the bytes as they cross the socket: a
 * download that progresses, however slowly, is never cut, and one whose client stopped reading is closed, which frees
 * the worker thread blocked writing it and the buffers it holds. Vert.x's idle timeout cannot do this: it counts a
 * write only once a whole buffer has gone out, and a request head trickled a byte at a time keeps it quiet for ever.
 *
 * <p>Everything here runs on the connection's event loop: the periodic check, the reads it watches, the decoded
 * messages, and the tracer's call ({@link UndecodableRequests}) as the first request's head has been decoded.
 */
final class TransferWatch extends ChannelDuplexHandler {

    private static final Logger LOG = Logger.getLogger(TransferWatch.class);
    /** The fewest checks per timeout, so that a connection is closed at most a fifth of a timeout late. */
    private static final int CHECKS_PER_TIMEOUT = 5;
    private static final long MAX_CHECK_NANOS = TimeUnit.SECONDS.toNanos(1);
    /** The name of Vert.x's HTTP/1 request decoder in a connection's pipeline. */
    private static final String DECODER = "httpDecoder";

    private final TransferDeadlines deadlines;
    private ScheduledFuture<?> check;
    /** When the head being awaited was started (the connection's start for its first request), or 0. */
    private long headSince;
    /** Requests whose head was decoded and the end of whose body was not: the service is waiting for body bytes. */
    private int bodiesOpen;
    /** Since when the service has been waiting for body bytes that do not come. */
    private long bodyWaitSince;
    /** What of the pending output has moved: compared at each check, as Netty's IdleStateHandler does. */
    private Object outputMark;
    private long outputStillSince;
    private boolean multiplexed;
    /** Bytes of responses written to the socket, and whether it is still open: for {@link #awaitRoom}. */
    private long flushed;
    private boolean closed;
    private final Object room = new Object();
    /** What requests on this connection hold until they end, given back if the connection closes first. */
    private final Set<Runnable> onClose = ConcurrentHashMap.newKeySet();

    TransferWatch(TransferDeadlines deadlines) {
        this.deadlines = deadlines;
    }

    /**
     * Called by the tracer as a request's head has been decoded. The first time on an HTTP/1 connection, this puts
     * a {@link Messages} right after the decoder, which from then on reports every head and body end it decodes;
     * HTTP/2 carries many requests at once on a connection, so there only the response's progress is watched.
     */
    static void headDecoded(io.netty.channel.Channel channel, HttpServerRequest request) {
        TransferWatch watch = channel.pipeline().get(TransferWatch.class);
        if (watch == null || watch.multiplexed) {
            return;
        }
        if (request.version() == HttpVersion.HTTP_2) {
            watch.multiplexed = true;
            watch.headSince = 0;
        } else if (channel.pipeline().get(Messages.class) == null && channel.pipeline().get(DECODER) != null) {
            // this head went by before the messages were watched: its body's end will not
            channel.pipeline().addAfter(DECODER, "evidence-transfer-messages", new Messages(watch));
            watch.head();
        }
    }

    /** The request being handled on this thread, if there is one. */
    static Optional<RoutingContext> currentRequest() {
        InstanceHandle<CurrentVertxRequest> current = Arc.container().instance(CurrentVertxRequest.class);
        return Optional.ofNullable(current.isAvailable() ? current.get().getCurrent() : null);
    }

    /** The watch of the connection of {@code request}, if it has one. */
    static Optional<TransferWatch> of(RoutingContext request) {
        if (request.request().connection() instanceof ConnectionBase connection) {
            return Optional.ofNullable(connection.channel().pipeline().get(TransferWatch.class));
        }
        return Optional.empty();
    }

    /**
     * Ends the response of {@code request} at once, its body incomplete, if its head has gone out (an answer can no
     * longer replace it). Vert.x closes an HTTP/1 connection (its reset of the response, and any close that passes
     * its handler) only after what is queued has gone out, and what the framework queues after a failure (the
     * failure's problem document, the last chunk of a chunked body) could then complete a broken body. A close
     * from the first handler, queued on the event loop before any of that, drops it all: the client sees the
     * transfer end short. HTTP/2 resets just the stream.
     */
    static void cutShort(RoutingContext request) {
        if (!request.response().headWritten()) {
            return;
        }
        if (request.request().version() != HttpVersion.HTTP_2
                && request.request().connection() instanceof ConnectionBase connection) {
            // from the pipeline's first handler, past Vert.x's own, which would close only after what is queued
            connection.channel().pipeline().firstContext().close();
        } else {
            request.response().reset();
        }
    }

    /**
     * Runs {@code action} when the connection of {@code request} closes (at once if it has), unless the returned
     * forget runs first. Without a watch on the connection it never runs.
     */
    static Runnable whenClosed(HttpServerRequest request, Runnable action) {
        if (!(request.connection() instanceof ConnectionBase connection)) {
            return () -> { };
        }
        TransferWatch watch = connection.channel().pipeline().get(TransferWatch.class);
        if (watch == null) {
            return () -> { };
        }
        watch.onClose.add(action);
        if (!connection.channel().isActive() && watch.onClose.remove(action)) {
            // closed before the action was added: channelInactive has run, or runs without it
            action.run();
        }
        return () -> watch.onClose.remove(action);
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        headSince = System.nanoTime();
        long period = Math.min(MAX_CHECK_NANOS, deadlines.shortest().toNanos() / CHECKS_PER_TIMEOUT);
        check = ctx.executor().scheduleAtFixedRate(() -> check(ctx), period, period, TimeUnit.NANOSECONDS);
        super.channelActive(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        if (check != null) {
            check.cancel(false);
        }
        synchronized (room) {
            closed = true;
            room.notifyAll();
        }
        for (Runnable action : onClose) {
            if (onClose.remove(action)) {
                action.run();
            }
        }
        super.channelInactive(ctx);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) throws Exception {
        long size = msg instanceof ByteBuf bytes ? bytes.readableBytes() : 0;
        if (size > 0) {
            ChannelPromise written = promise.unvoid();
            written.addListener(done -> wrote(size));
            super.write(ctx, msg, written);
        } else {
            super.write(ctx, msg, promise);
        }
    }

    private void wrote(long size) {
        synchronized (room) {
            flushed += size;
            room.notifyAll();
        }
    }

    /** Bytes of responses written to the socket so far on this connection. */
    long flushed() {
        synchronized (room) {
            return flushed;
        }
    }

    /**
     * Blocks a worker thread streaming a response until the socket has taken all but {@code slack} of the
     * {@code handedOver} bytes it wrote since {@code flushedAtStart}: Vert.x queues a worker's writes for the event
     * loop and tells it the connection is full only after they went out, so a worker can otherwise pile buffers up
     * for a client that reads nothing. Returns false once the connection has closed.
     */
    boolean awaitRoom(long flushedAtStart, long handedOver, long slack) throws InterruptedException {
        synchronized (room) {
            while (!closed && handedOver - (flushed - flushedAtStart) > slack) {
                room.wait(1000);
            }
            return !closed;
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        long now = System.nanoTime();
        // bytes that are no request's body start the next head
        if (bodiesOpen == 0 && headSince == 0 && !multiplexed) {
            headSince = now;
        }
        bodyWaitSince = now;
        super.channelRead(ctx, msg);
    }

    private void head() {
        headSince = 0;
        bodiesOpen++;
        bodyWaitSince = System.nanoTime();
    }

    private void bodyEnded() {
        bodiesOpen = Math.max(0, bodiesOpen - 1);
    }

    private void check(ChannelHandlerContext ctx) {
        long now = System.nanoTime();
        if (headSince != 0 && now - headSince > deadlines.header().toNanos()) {
            end(ctx, "its request headers were not complete within " + deadlines.header());
        } else if (waitingForBody(ctx, now) && now - bodyWaitSince > deadlines.bodyIdle().toNanos()) {
            end(ctx, "its request body sent nothing for " + deadlines.bodyIdle());
        } else if (outputStalled(ctx, now) && now - outputStillSince > deadlines.stalledTransfer().toNanos()) {
            end(ctx, "it accepted no bytes of its response for " + deadlines.stalledTransfer());
        }
    }

    /**
     * The service wants body bytes the client does not send. While the service itself holds the body back (reading
     * is paused until it has taken what arrived), the client is not waited for, so that time does not count.
     */
    private boolean waitingForBody(ChannelHandlerContext ctx, long now) {
        if (bodiesOpen == 0) {
            return false;
        }
        if (!ctx.channel().config().isAutoRead()) {
            bodyWaitSince = now;
            return false;
        }
        return true;
    }

    /** Bytes wait to go out and none of them moved since the last check. */
    private boolean outputStalled(ChannelHandlerContext ctx, long now) {
        ChannelOutboundBuffer pending = ctx.channel().unsafe().outboundBuffer();
        if (pending == null || pending.totalPendingWriteBytes() == 0) {
            outputMark = null;
            return false;
        }
        // bytes leaving, not bytes added: a writer that keeps adding to a stalled connection is no progress
        OutputMark mark = new OutputMark(System.identityHashCode(pending.current()), pending.currentProgress(),
                flushed);
        if (!mark.equals(outputMark)) {
            outputMark = mark;
            outputStillSince = now;
        }
        return true;
    }

    private void end(ChannelHandlerContext ctx, String why) {
        // the client's doing, not a fault of the service: worth a line, not an alarm
        LOG.infof("closed the connection of %s: %s", ctx.channel().remoteAddress(), why);
        check.cancel(false);
        ctx.close();
    }

    /** The decoded messages of an HTTP/1 connection, as they leave the decoder: heads and the ends of bodies. */
    private static final class Messages extends ChannelInboundHandlerAdapter {
        private final TransferWatch watch;

        Messages(TransferWatch watch) {
            this.watch = watch;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
            if (msg instanceof HttpRequest) {
                watch.head();
            }
            if (msg instanceof LastHttpContent) {
                watch.bodyEnded();
            }
            super.channelRead(ctx, msg);
        }
    }

    /** Where the output stood: the message being written, the progress into it, and the bytes written before. */
    private record OutputMark(int message, long progress, long flushed) {
    }
}
