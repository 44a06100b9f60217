package dev.evidencestore.http;

import com.arjuna.ats.arjuna.common.arjPropertyManager;
import com.arjuna.ats.internal.jta.transaction.arjunacore.TransactionSynchronizationRegistryImple;
import dev.evidencestore.domain.ProblemType;
import dev.evidencestore.domain.Refusal;
import dev.evidencestore.support.TestDatabase;
import io.agroal.api.AgroalDataSource;
import io.agroal.api.configuration.supplier.AgroalDataSourceConfigurationSupplier;
import io.agroal.api.security.NamePrincipal;
import io.agroal.api.security.SimplePassword;
import io.agroal.narayana.NarayanaTransactionIntegration;
import io.quarkus.arc.ArcUndeclaredThrowableException;
import io.quarkus.narayana.jta.QuarkusTransactionException;
import io.vertx.core.VertxException;
import jakarta.transaction.HeuristicMixedException;
import jakarta.transaction.RollbackException;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionManager;
import jakarta.transaction.TransactionSynchronizationRegistry;
import org.hibernate.JDBCException;
import org.hibernate.exception.JDBCConnectionException;
import org.hibernate.exception.internal.SQLStateConversionDelegate;
import org.hibernate.exception.internal.StandardSQLExceptionConverter;
import org.hibernate.exception.spi.SQLExceptionConversionDelegate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.postgresql.util.PSQLException;
import org.postgresql.util.PSQLState;

import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The exceptions the libraries build when the database goes away, made by the libraries themselves: Agroal's pool
 * and the PostgreSQL driver against a port that refuses and one that never answers, Narayana committing over a
 * connection the server has just terminated, Hibernate's conversion of the driver's exception; then wrapped as Arc,
 * QuarkusTransaction, Mutiny and Vert.x wrap them. Each must be a 503 {@code database-unavailable}, the answer the
 * contract promises, and never the 500 that a commit failure wrapped by Arc once was in the fault suite.
 */
class LostConnectionTest {

    private static final String URL = "jdbc:postgresql://" + TestDatabase.HOST + "/postgres";
    private static TransactionManager transactions;
    private static TransactionSynchronizationRegistry synchronizations;
    private static AgroalDataSource database;

    @BeforeAll
    static void narayana() throws SQLException {
        // one-phase commits of a single resource write no log; the store is only for what recovery would need
        arjPropertyManager.getObjectStoreEnvironmentBean().setObjectStoreDir("target/lost-connection-test-store");
        transactions = com.arjuna.ats.jta.TransactionManager.transactionManager();
        synchronizations = new TransactionSynchronizationRegistryImple();
        database = pool(URL, 2, Duration.ofSeconds(5));
    }

    @AfterAll
    static void close() {
        database.close();
    }

    private static AgroalDataSource pool(String url, int size, Duration acquisitionTimeout) throws SQLException {
        return AgroalDataSource.from(new AgroalDataSourceConfigurationSupplier()
                .connectionPoolConfiguration(pool -> pool.maxSize(size).acquisitionTimeout(acquisitionTimeout)
                        .transactionIntegration(new NarayanaTransactionIntegration(transactions, synchronizations))
                        .connectionFactoryConfiguration(factory -> factory.jdbcUrl(url)
                                .principal(new NamePrincipal(TestDatabase.USER))
                                .credential(new SimplePassword(TestDatabase.PASSWORD)))));
    }

    private static Refusal refusal(Throwable failure) {
        Optional<Refusal> refusal = Outage.recognise(failure);
        assertTrue(refusal.isPresent(), () -> "not recognised: " + Outage.tree(failure));
        return refusal.get();
    }

    private static void assertDatabaseUnavailable(Throwable failure) {
        Refusal refusal = refusal(failure);
        assertEquals(ProblemType.DATABASE_UNAVAILABLE, refusal.type(), () -> String.valueOf(Outage.tree(failure)));
        assertEquals(Outage.RETRY_AFTER_SECONDS, refusal.extensions().get("retryAfterSeconds"));
    }

    /** As Arc's intercepted subclass wraps a checked exception, such as a commit's, thrown by an interceptor. */
    private static Throwable asArcWrapsIt(Throwable e) {
        return new ArcUndeclaredThrowableException("Error invoking subclass method", e);
    }

    @Test
    void aRefusedConnectionAsThePoolHibernateAndArcReportIt() throws Exception {
        try (AgroalDataSource refusing = pool("jdbc:postgresql://127.0.0.1:" + unusedPort() + "/evidence", 2,
                Duration.ofSeconds(5))) {
            SQLException refused = assertThrows(SQLException.class, refusing::getConnection);
            assertDatabaseUnavailable(refused);
            JDBCException converted = hibernate(refused);
            assertInstanceOf(JDBCConnectionException.class, converted);
            assertDatabaseUnavailable(asArcWrapsIt(converted));
        }
    }

    /** A server that accepts and never answers, as one that hangs: the pool gives up waiting for a new connection. */
    @Test
    void aServerThatNeverAnswersIsUnavailableNotBusy() throws Exception {
        List<Socket> accepted = new CopyOnWriteArrayList<>();
        try (ServerSocket silent = new ServerSocket(0)) {
            Thread acceptor = new Thread(() -> {
                try {
                    while (true) {
                        accepted.add(silent.accept());
                    }
                } catch (IOException closed) {
                    // the test is over
                }
            });
            acceptor.setDaemon(true);
            acceptor.start();
            try (AgroalDataSource hanging = pool("jdbc:postgresql://127.0.0.1:" + silent.getLocalPort() + "/evidence", 2,
                    Duration.ofSeconds(1))) {
                SQLException timedOut = assertThrows(SQLException.class, hanging::getConnection);
                assertDatabaseUnavailable(timedOut);
                assertDatabaseUnavailable(asArcWrapsIt(hibernate(timedOut)));
            }
        } finally {
            for (Socket socket : accepted) {
                socket.close();
            }
        }
    }

    @Test
    void aPoolWhoseConnectionsAreAllInUseIsBusy() throws Exception {
        try (AgroalDataSource one = pool(URL, 1, Duration.ofMillis(500)); Connection held = one.getConnection()) {
            SQLException exhausted = assertThrows(SQLException.class, one::getConnection);
            Refusal refusal = refusal(asArcWrapsIt(hibernate(exhausted)));
            assertEquals(ProblemType.SERVICE_BUSY, refusal.type());
            assertEquals(Outage.RETRY_AFTER_SECONDS, refusal.extensions().get("retryAfterSeconds"));
            assertTrue(held.isValid(1));
        }
    }

    /**
     * The server terminates the connection of a transaction before its commit: Agroal's XA resource fails its
     * one-phase commit, and Narayana throws a RollbackException that holds the XAException as a suppressed exception,
     * the driver's exception as that one's cause; Arc or QuarkusTransaction wrap it. The outcome cannot be promised.
     */
    @Test
    void aConnectionTerminatedBeforeTheCommit() throws Exception {
        transactions.begin();
        try (Connection connection = database.getConnection()) {
            terminate(backendOf(connection));
        }
        RollbackException commit = assertThrows(RollbackException.class, transactions::commit);
        assertInstanceOf(XAException.class, commit.getSuppressed()[0]);
        for (Throwable wrapped : List.of(asArcWrapsIt(commit), new QuarkusTransactionException(commit),
                new CompletionException(commit), new VertxException(commit))) {
            assertDatabaseUnavailable(wrapped);
            assertTrue(refusal(wrapped).getMessage().contains("may or may not be stored"), refusal(wrapped)::getMessage);
        }
    }

    /** Hibernate flushes before completion; the flush meets the terminated connection, and the commit rolls back. */
    @Test
    void aFlushThatMeetsATerminatedConnection() throws Exception {
        RollbackException commit = commitWith(statement -> {
            try {
                terminate(backendOf(statement.getConnection()));
                statement.execute("SELECT 1");
            } catch (SQLException e) {
                throw hibernate(e);
            }
        });
        assertInstanceOf(JDBCException.class, commit.getCause());
        assertDatabaseUnavailable(asArcWrapsIt(commit));
    }

    /**
     * A resource that fails its commit with nothing to say why but its XA error: Narayana answers RollbackException
     * or HeuristicMixedException with only that XAException suppressed; the one resource is the database's connection.
     */
    @Test
    void aCommitThatFailsWithNothingButTheResourcesXaError() throws Exception {
        for (int code : new int[] {XAException.XAER_RMFAIL, XAException.XAER_RMERR, XAException.XA_HEURHAZ,
                XAException.XA_HEURMIX}) {
            Exception commit = commitFailing(new XAException(code));
            assertTrue(commit instanceof RollbackException || commit instanceof HeuristicMixedException,
                    commit::toString);
            assertDatabaseUnavailable(asArcWrapsIt(commit));
        }
        XAException lost = new XAException(XAException.XAER_RMERR);
        lost.initCause(new PSQLException("An I/O error occurred while sending to the backend.",
                PSQLState.CONNECTION_FAILURE));
        assertDatabaseUnavailable(asArcWrapsIt(commitFailing(lost)));
    }

    /** A commit that fails for the service's own reasons or the data's stays an internal error: nothing to retry. */
    @Test
    void aCommitThatFailsForAnotherReasonIsNotAnOutage() throws Exception {
        XAException constraint = new XAException(XAException.XAER_RMERR);
        constraint.initCause(new PSQLException("duplicate key value violates unique constraint",
                PSQLState.UNIQUE_VIOLATION));
        assertEquals(Optional.empty(), Outage.recognise(asArcWrapsIt(commitFailing(constraint))));
        RollbackException bug = commitWith(statement -> {
            throw new IllegalStateException("a bug in a flush");
        });
        assertEquals(Optional.empty(), Outage.recognise(asArcWrapsIt(bug)));
    }

    /** The commit of a transaction with one connection, after {@code beforeCompletion} ran on its statement. */
    private static RollbackException commitWith(Consumer<Statement> beforeCompletion) throws Exception {
        transactions.begin();
        try (Connection connection = database.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute("SELECT 1");
            synchronizations.registerInterposedSynchronization(new Synchronization() {
                @Override
                public void beforeCompletion() {
                    beforeCompletion.accept(statement);
                }

                @Override
                public void afterCompletion(int status) {
                }
            });
            return assertThrows(RollbackException.class, transactions::commit);
        }
    }

    private static Exception commitFailing(XAException failure) throws Exception {
        transactions.begin();
        transactions.getTransaction().enlistResource(new FailingResource(failure));
        return assertThrows(Exception.class, transactions::commit);
    }

    /**
     * Hibernate's conversion of a driver's exception, as its JDBC layer applies it: by SQLSTATE, else a
     * GenericJDBCException (for the pool's own exceptions, which have none).
     */
    private static JDBCException hibernate(SQLException e) {
        SQLExceptionConversionDelegate bySqlState = new SQLStateConversionDelegate(() -> sql -> null);
        return new StandardSQLExceptionConverter(bySqlState).convert(e, "could not execute statement", "SELECT 1");
    }

    private static int backendOf(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
             ResultSet row = statement.executeQuery("SELECT pg_backend_pid()")) {
            row.next();
            return row.getInt(1);
        }
    }

    /** As an administrator or a restarting server does: the backend quits, and its client learns at its next step. */
    private static void terminate(int backend) throws SQLException {
        try (Connection admin = DriverManager.getConnection(URL, TestDatabase.USER, TestDatabase.PASSWORD);
             Statement statement = admin.createStatement()) {
            statement.execute("SELECT pg_terminate_backend(" + backend + ")");
        }
    }

    private static int unusedPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /** An XA resource whose one-phase commit fails with {@code failure}. */
    private record FailingResource(XAException failure) implements XAResource {
        @Override
        public void commit(Xid xid, boolean onePhase) throws XAException {
            throw failure;
        }

        @Override
        public void start(Xid xid, int flags) {
        }

        @Override
        public void end(Xid xid, int flags) {
        }

        @Override
        public int prepare(Xid xid) {
            return XA_OK;
        }

        @Override
        public void rollback(Xid xid) {
        }

        @Override
        public void forget(Xid xid) {
        }

        @Override
        public Xid[] recover(int flag) {
            return new Xid[0];
        }

        @Override
        public boolean isSameRM(XAResource other) {
            return false;
        }

        @Override
        public int getTransactionTimeout() {
            return 0;
        }

        @Override
        public boolean setTransactionTimeout(int seconds) {
            return false;
        }
    }
}
