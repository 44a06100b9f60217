package dev.evidencestore.persistence;

import dev.evidencestore.domain.AuditCheckpoint;
import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.hibernate.annotations.Immutable;

import java.time.Instant;

@Entity
@Immutable
@Table(name = "audit_checkpoint")
public class AuditCheckpointEntity extends PanacheEntityBase {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    public Instant at;

    @Column(name = "chain_length")
    public long chainLength;

    @Column(name = "head_hash")
    public String headHash;

    @Column(name = "public_key")
    public String publicKey;

    public String signature;

    public static AuditCheckpointEntity of(AuditCheckpoint checkpoint) {
        AuditCheckpointEntity row = new AuditCheckpointEntity();
        row.at = checkpoint.at();
        row.chainLength = checkpoint.chainLength();
        row.headHash = checkpoint.headHash();
        row.publicKey = checkpoint.publicKey();
        row.signature = checkpoint.signature();
        return row;
    }

    public AuditCheckpoint toCheckpoint() {
        return new AuditCheckpoint(chainLength, headHash, at, publicKey, signature);
    }
}
