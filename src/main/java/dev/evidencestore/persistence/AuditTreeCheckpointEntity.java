package dev.evidencestore.persistence;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.hibernate.annotations.Immutable;

import java.time.Instant;
import java.util.List;

/** A signed checkpoint of the audit log's Merkle tree, the C2SP note as served. */
@Entity
@Immutable
@Table(name = "audit_tree_checkpoint")
public class AuditTreeCheckpointEntity extends PanacheEntityBase {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    public Instant at;

    @Column(name = "tree_size")
    public long treeSize;

    @Column(name = "root_hash")
    public byte[] rootHash;

    @Column(name = "key_id")
    public String keyId;

    public String note;

    public static AuditTreeCheckpointEntity latest() {
        return AuditTreeCheckpointEntity.<AuditTreeCheckpointEntity>find("order by id desc").firstResult();
    }

    /** Up to {@code limit} checkpoints written after {@code afterId}, in the order they were written. */
    public static List<AuditTreeCheckpointEntity> after(long afterId, long upToId, int limit) {
        return AuditTreeCheckpointEntity.<AuditTreeCheckpointEntity>find("id > ?1 and id <= ?2 order by id",
                afterId, upToId).range(0, limit - 1).list();
    }
}
