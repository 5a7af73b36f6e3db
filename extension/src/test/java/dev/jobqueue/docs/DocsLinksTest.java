package dev.jobqueue.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every relative link in the README and the Markdown under {@code docs/} and beside them reaches a file that
 * exists, and every {@code #anchor} a heading (or an explicit {@code <a id>}) of the page it names, as a code
 * host renders them.
 */
class DocsLinksTest {

    private static final Path ROOT = Path.of("..");
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
    private static final Pattern HEADING = Pattern.compile("(?m)^#{1,6} +(.+?) *#*$");
    private static final Pattern EXPLICIT_ANCHOR = Pattern.compile("<a id=\"([^\"]+)\"");

    @Test
    void every_relative_link_and_anchor_of_the_documentation_resolves() throws IOException {
        List<String> broken = new ArrayList<>();
        for (Path page : pages()) {
            String text = withoutCode(Files.readString(page));
            Matcher link = LINK.matcher(text);
            while (link.find()) {
                String target = link.group(1);
                if (target.matches("^[a-z][a-z0-9+.-]*:.*") || target.startsWith("//")) {
                    continue;
                }
                String file = target.contains("#") ? target.substring(0, target.indexOf('#')) : target;
                String anchor = target.contains("#") ? target.substring(target.indexOf('#') + 1) : null;
                Path linked = file.isEmpty() ? page : page.getParent().resolve(URLDecoder.decode(file,
                        StandardCharsets.UTF_8)).normalize();
                if (!Files.exists(linked)) {
                    broken.add(ROOT.relativize(page) + ": " + target + " (no such file)");
                } else if (anchor != null && linked.toString().endsWith(".md")
                        && !anchors(Files.readString(linked)).contains(anchor)) {
                    broken.add(ROOT.relativize(page) + ": " + target + " (no such heading)");
                }
            }
        }
        assertEquals(List.of(), broken, "broken links");
    }

    /** The README and every Markdown file under docs/, CONTRIBUTING.md and CHANGELOG.md. */
    static List<Path> pages() throws IOException {
        List<Path> pages = new ArrayList<>();
        for (String name : new String[] {"README.md", "CONTRIBUTING.md", "CHANGELOG.md"}) {
            if (Files.exists(ROOT.resolve(name))) {
                pages.add(ROOT.resolve(name).normalize());
            }
        }
        try (Stream<Path> docs = Files.walk(ROOT.resolve("docs"))) {
            docs.filter(path -> path.toString().endsWith(".md")).map(Path::normalize).sorted().forEach(pages::add);
        }
        return pages;
    }

    /** The anchors a code host gives a page's headings: lower case, punctuation dropped, spaces as hyphens. */
    static Set<String> anchors(String page) {
        Set<String> anchors = new HashSet<>();
        Matcher heading = HEADING.matcher(withoutCode(page));
        while (heading.find()) {
            String slug = heading.group(1).toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N} _-]", "")
                    .replace(' ', '-');
            String unique = slug;
            for (int n = 1; !anchors.add(unique); n++) {
                unique = slug + "-" + n;
            }
        }
        Matcher explicit = EXPLICIT_ANCHOR.matcher(page);
        while (explicit.find()) {
            anchors.add(explicit.group(1));
        }
        return anchors;
    }

    /** The page without its fenced code blocks, where a {@code #} is no heading and a bracket no link. */
    private static String withoutCode(String page) {
        return page.replaceAll("(?ms)^```.*?^```", "");
    }
}
