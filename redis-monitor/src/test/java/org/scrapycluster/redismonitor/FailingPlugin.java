package org.scrapycluster.redismonitor;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.scrapycluster.redismonitor.job.Answer;
import org.scrapycluster.redismonitor.job.Job;
import org.scrapycluster.redismonitor.job.JobPlugin;
import org.scrapycluster.redismonitor.job.JobPluginFactory;
import org.scrapycluster.redismonitor.job.PluginContext;

/**
 * A user plugin, named in {@code PLUGINS} by its class name, whose jobs {@code failtest:<appid>:<name>}
 * always fail; it counts its attempts in {@code failtest-attempts:<key>}.
 */
public final class FailingPlugin implements JobPlugin {

    private final PluginContext context;

    /** Makes the plugin; named in {@code PLUGINS} by its class name. */
    public static final class Factory implements JobPluginFactory {
        @Override
        public String name() {
            return Factory.class.getName();
        }

        @Override
        public JobPlugin create(PluginContext context) {
            return new FailingPlugin(context);
        }
    }

    public FailingPlugin(PluginContext context) {
        this.context = context;
    }

    static String attemptsKey(String jobKey) {
        return "failtest-attempts:" + jobKey;
    }

    @Override
    public String name() {
        return "FailingPlugin";
    }

    @Override
    public String pattern() {
        return "failtest:*:*";
    }

    @Override
    public List<Answer> handle(Job job) {
        context.redis().sync().incr(attemptsKey(job.key()));
        throw new IllegalStateException("boom");
    }

    @Override
    public Optional<Answer> errorAnswer(Job job, String error) {
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("appid", job.parts().get(1));
        answer.put("uuid", job.value());
        answer.put("error", error);
        return Optional.of(new Answer(job.parts().get(1), answer, "Sent failtest error to kafka"));
    }
}
