package dev.evidencestore.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * {@code evidence capture github}: a deployment, its statuses and the compare diff from the previous deployment (or
 * {@code --base}) to its commit, through GitHub's REST API, as one text in the demo's shape (a header block, the
 * commits, the unified diff), recording the repository, the refs and the commit SHAs.
 */
@Command(name = "github", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Capture a GitHub deployment, its statuses and its compare diff, and push them as one text.")
final class GithubCapture implements Callable<Integer> {

    @ParentCommand
    CaptureCommand capture;

    @Option(names = "--api", defaultValue = "https://api.github.com", paramLabel = "URL",
            description = "GitHub's REST API (default https://api.github.com; GitHub Enterprise: https://HOST/api/v3).")
    String api;

    @Option(names = "--github-token-file", paramLabel = "FILE",
            description = "A file holding a token (env GITHUB_TOKEN).")
    Path tokenFile;

    @Option(names = "--repo", required = true, paramLabel = "OWNER/NAME")
    String repository;

    @Option(names = "--deployment", required = true, paramLabel = "ID", description = "The deployment's numeric ID.")
    long deployment;

    @Option(names = "--base", paramLabel = "REF",
            description = "Compare from this ref (default: the previous deployment to the same environment).")
    String base;

    @Mixin
    ArtifactOptions artifact;

    @Mixin
    ServiceOptions service;

    @Override
    public Integer call() throws IOException {
        Invocation invocation = capture.root.invocation;
        if (!repository.matches("[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+")) {
            throw CommandFailure.usage("--repo is OWNER/NAME, not " + repository);
        }
        SourceApi github = new SourceApi("github", api, SourceApi.token(tokenFile, invocation, "GITHUB_TOKEN"))
                .header("X-GitHub-Api-Version", "2022-11-28");
        Session session = Session.open(service, invocation);
        GithubDeployment found = GithubDeployment.fetch(github, repository, deployment, Optional.ofNullable(base));
        ObjectNode known = Json.object().put("repository", repository).put("deployment", Long.toString(deployment))
                .put("environment", found.environment()).put("ref", found.ref()).put("commit", found.sha())
                .put("compare", found.baseRef() + "..." + found.sha()).put("baseCommit", found.baseSha())
                .put("api", github.base().toString());
        HashedFile file = HashedFile.copyOf(new ByteArrayInputStream(found.text().getBytes(StandardCharsets.UTF_8)),
                "github deployment " + deployment);
        return new Captured(file, known, "github", "github-deployment-" + deployment, "text/x-diff",
                "Deployment " + deployment + " of " + repository + " (" + found.ref() + ") to " + found.environment()
                        + ", and its diff").push(session, artifact, invocation);
    }
}
