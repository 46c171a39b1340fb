package org.scrapycluster.redismonitor;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.scrapycluster.redismonitor.job.Answer;
import org.scrapycluster.redismonitor.job.Job;
import org.scrapycluster.redismonitor.job.JobPlugin;
import org.scrapycluster.redismonitor.job.JobPluginFactory;
import org.scrapycluster.redismonitor.job.PluginContext;

/** The original's online-test plugin (docs/compatibility.md §10.2): {@code info-test:*} answers {@code {"info-test": value, "appid": "someapp"}}. */
public final class InfoTestPlugin implements JobPlugin {

    /** Makes the plugin; named in {@code PLUGINS} by its class name. */
    public static final class Factory implements JobPluginFactory {
        @Override
        public String name() {
            return Factory.class.getName();
        }

        @Override
        public JobPlugin create(PluginContext context) {
            return new InfoTestPlugin(context);
        }
    }

    public InfoTestPlugin(PluginContext context) {
        // needs nothing from the context
    }

    @Override
    public String name() {
        return "InfoTestPlugin";
    }

    @Override
    public String pattern() {
        return "info-test:*";
    }

    @Override
    public List<Answer> handle(Job job) {
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("info-test", job.value());
        answer.put("appid", "someapp");
        return List.of(new Answer("someapp", answer, "Sent info-test to kafka"));
    }
}
