package dev.evidencestore.service;

import dev.evidencestore.EvidenceConfig;
import dev.evidencestore.domain.Workspace;
import dev.evidencestore.security.Actor;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;

import java.util.List;
import java.util.Set;

/**
 * Which workspaces exist and who may read them. A workspace exists once an incident is created in it; anyone may
 * read the public-read ones, a token the ones it holds (every one when it names none). The same rules as the
 * workspace gate, for the pages that list workspaces rather than name one.
 */
@ApplicationScoped
public class WorkspaceDirectory {

    private final EntityManager entityManager;
    private final Set<String> publicWorkspaces;

    WorkspaceDirectory(EntityManager entityManager, EvidenceConfig config) {
        this.entityManager = entityManager;
        this.publicWorkspaces = config.publicReadWorkspaces().orElse(Set.of());
    }

    /** The workspaces this actor may read, by slug. */
    @Transactional
    public List<Workspace> readable(Actor actor) {
        return entityManager.createQuery("select distinct i.workspace from IncidentEntity i order by i.workspace",
                        String.class).getResultList().stream()
                .map(Workspace::new)
                .filter(workspace -> mayRead(actor, workspace))
                .toList();
    }

    /** Whether anyone may read this workspace without a token. */
    public boolean isPublic(Workspace workspace) {
        return publicWorkspaces.contains(workspace.slug());
    }

    public boolean mayRead(Actor actor, Workspace workspace) {
        return isPublic(workspace) || actor.mayRead() && actor.holds(workspace);
    }
}
