package dev.evidencestore.http;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFactory;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.InternetProtocolFamily;
import io.vertx.core.datagram.DatagramSocketOptions;
import io.vertx.core.net.ClientOptionsBase;
import io.vertx.core.net.NetServerOptions;
import io.vertx.core.spi.transport.Transport;

import java.net.SocketAddress;
import java.util.concurrent.ThreadFactory;

/**
 * Vert.x's transport with one change: every connection a server accepts (the service runs HTTP servers only) gets a {@link TransferWatch} first in
 * its pipeline, before Vert.x sets up the rest. Quarkus creates the server and offers no hook on its connections;
 * the transport, set through the tracer factory's access to the Vert.x builder ({@link UndecodableRequests}), is the
 * one place that sees a connection as it is accepted. Everything else is the transport Vert.x chose.
 */
final class WatchedTransport implements Transport {

    private final Transport chosen;
    private final TransferDeadlines deadlines;

    WatchedTransport(Transport chosen, TransferDeadlines deadlines) {
        this.chosen = chosen;
        this.deadlines = deadlines;
    }

    @Override
    public void configure(NetServerOptions options, boolean domainSocket, ServerBootstrap bootstrap) {
        chosen.configure(options, domainSocket, bootstrap);
        // the options are a copy as plain NetServerOptions, HTTP or not; every server Vert.x runs here is HTTP's
        ChannelHandler vertx = bootstrap.config().childHandler();
        if (vertx != null) {
            bootstrap.childHandler(new Watched(vertx, deadlines));
        }
    }

    /** Puts the watch ahead of what Vert.x adds to an accepted connection's pipeline. */
    @ChannelHandler.Sharable
    private static final class Watched extends ChannelInitializer<Channel> {
        private final ChannelHandler vertx;
        private final TransferDeadlines deadlines;

        Watched(ChannelHandler vertx, TransferDeadlines deadlines) {
            this.vertx = vertx;
            this.deadlines = deadlines;
        }

        @Override
        protected void initChannel(Channel channel) {
            channel.pipeline().addLast(new TransferWatch(deadlines), vertx);
        }
    }

    @Override
    public boolean supportsDomainSockets() {
        return chosen.supportsDomainSockets();
    }

    @Override
    public boolean supportFileRegion() {
        return chosen.supportFileRegion();
    }

    @Override
    public boolean isAvailable() {
        return chosen.isAvailable();
    }

    @Override
    public Throwable unavailabilityCause() {
        return chosen.unavailabilityCause();
    }

    @Override
    public SocketAddress convert(io.vertx.core.net.SocketAddress address) {
        return chosen.convert(address);
    }

    @Override
    public io.vertx.core.net.SocketAddress convert(SocketAddress address) {
        return chosen.convert(address);
    }

    @Override
    public EventLoopGroup eventLoopGroup(int type, int threads, ThreadFactory threadFactory, int ioRatio) {
        return chosen.eventLoopGroup(type, threads, threadFactory, ioRatio);
    }

    @Override
    public DatagramChannel datagramChannel() {
        return chosen.datagramChannel();
    }

    @Override
    public DatagramChannel datagramChannel(InternetProtocolFamily family) {
        return chosen.datagramChannel(family);
    }

    @Override
    public ChannelFactory<? extends Channel> channelFactory(boolean domainSocket) {
        return chosen.channelFactory(domainSocket);
    }

    @Override
    public ChannelFactory<? extends ServerChannel> serverChannelFactory(boolean domainSocket) {
        return chosen.serverChannelFactory(domainSocket);
    }

    @Override
    public void configure(DatagramChannel channel, DatagramSocketOptions options) {
        chosen.configure(channel, options);
    }

    @Override
    public void configure(ClientOptionsBase options, boolean domainSocket, Bootstrap bootstrap) {
        chosen.configure(options, domainSocket, bootstrap);
    }
}
