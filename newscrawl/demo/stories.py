"""The stories of the demo sites, written for this project (fictional towns and people)."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Story:
    key: str  # stable id used in paths
    date: str  # ISO date-time with offset
    title: str
    author: str
    paragraphs: tuple[str, ...]


HARBOR = (
    Story("harbour-cranes-return-to-east-quay", "2024-05-14T08:30:00+00:00",
          "Harbour cranes return to the east quay after two years", "Mara Ellison", (
              "The three blue cranes that once defined the skyline of the east quay are back in service, "
              "the port authority said on Tuesday, ending a two-year refit that cost the city 41 million.",
              "Dock workers gathered before dawn to watch the first container lifted from the Nordlys, a feeder "
              "ship from Bergen. \"It felt like the harbour woke up again,\" said crane operator Tomas Reyes, "
              "who has worked the quay for nineteen years.",
              "Officials expect the cranes to handle about 1,200 containers a week by the autumn. Residents on "
              "Salt Street, however, have asked for night-time limits on the noise, and a hearing is planned "
              "for June.",
          )),
    Story("city-council-approves-ferry-timetable", "2024-05-13T17:05:00+00:00",
          "City council approves a new ferry timetable for the islands", "Daniel Okafor", (
              "Ferries to Gull Island and Little Marsh will run every forty minutes from July, after the city "
              "council voted nine to four in favour of the revised timetable on Monday evening.",
              "The change adds two early sailings for commuters and a late boat on Fridays. Councillor Hanna "
              "Weiss said the islands had waited a decade for a service that matched working hours.",
              "Opponents argued that the extra fuel would strain a budget already stretched by the harbour "
              "refit. The ferry company has promised to publish monthly figures on punctuality and cost.",
          )),
    Story("fish-market-opens-saturday-stalls", "2024-05-12T09:15:00+00:00",
          "Old fish market opens its doors to Saturday stalls", "Priya Lund", (
              "The brick hall of the old fish market, empty since the wholesalers moved inland, will host forty "
              "food and craft stalls every Saturday from next week.",
              "Traders signed one-year leases at a reduced rent while the building's roof is repaired. Baker "
              "Ines Carvalho, who will sell rye loaves by the north door, said the hall was \"too beautiful "
              "to stand empty, and too cold to stand in without coffee.\"",
              "The market trust hopes the stalls will bring visitors back to the waterfront on weekends, when "
              "most of the quay's cafes have closed in recent winters.",
          )),
    Story("storm-warning-lifted-for-coast", "2024-05-11T06:40:00+00:00",
          "Storm warning lifted for the northern coast", "Mara Ellison", (
              "Forecasters lifted the amber storm warning for the northern coast early on Saturday, after winds "
              "eased overnight to about 50 kilometres an hour.",
              "The storm had closed the coastal road for eleven hours and cut power to some 3,000 homes in "
              "Westerby and Holm. Repair crews restored most connections by midnight, the grid operator said.",
              "Harbour staff will inspect the breakwater on Monday. Fishing boats have been told to stay in "
              "port until the swell drops below two metres.",
          )),
    Story("library-extends-evening-hours", "2024-05-06T12:00:00+00:00",
          "Central library extends its evening opening hours", "Daniel Okafor", (
              "The central library will stay open until nine on weekday evenings from the first of June, the "
              "culture department announced, after a survey in which students asked for quiet study space.",
              "Two extra librarians will be hired for the evening shifts. The reading room on the second floor "
              "will also get new lamps, paid for by a bequest from a retired harbour pilot.",
              "Weekend hours stay the same. The library said it will review visitor numbers in December before "
              "deciding whether to keep the longer evenings.",
          )),
    Story("lighthouse-keeper-retires-after-forty-years", "2024-04-30T10:00:00+00:00",
          "Last lighthouse keeper on Gull Island retires after forty years", "Priya Lund", (
              "Erik Holm, the last resident keeper of the Gull Island lighthouse, climbed its 112 steps for the "
              "final time on Tuesday before handing the keys to the coastal agency.",
              "The light has been automatic since 2009, but Holm stayed on to maintain the lamp room and log the "
              "weather. His records, kept in pencil in forty-one notebooks, will go to the maritime museum.",
              "Asked what he would miss, Holm said the quiet mornings and the seals on the west rocks. He plans to "
              "move to the mainland to live near his daughter.",
          )),
    Story("rowing-club-wins-regional-final", "2024-04-28T19:20:00+00:00",
          "Harbour rowing club wins the regional final by half a length", "Tomasz Berg", (
              "The harbour rowing club's women's eight won the regional final on Sunday, beating the university "
              "crew by half a length in a headwind on the lower river.",
              "Stroke Alva Jensen said the crew had trained at six every morning since February. The club, "
              "founded in 1898, last won the title twenty-two years ago.",
              "The crew now qualifies for the national championships in August. Members are raising money for a "
              "new boat, as the current one was built in 1996.",
          )),
)

VALLEY = (
    Story("river-festival-draws-record-crowds", "2024-05-12T20:00:00-05:00",
          "River festival draws record crowds to Millbrook", "Jo Whitfield", (
              "An estimated 18,000 people lined the banks of the Sable River on Saturday for the annual river "
              "festival, the largest turnout since the event began in 1987.",
              "Organisers credited the warm weather and a new evening lantern parade, in which more than 300 "
              "paper boats were floated downstream past the old mill.",
              "Police reported no serious incidents. The festival committee said litter crews had cleared the "
              "riverside park by Sunday noon, and thanked the 120 volunteers who helped.",
          )),
    Story("school-board-delays-bus-contract", "2024-05-10T15:30:00-05:00",
          "School board delays vote on the bus contract", "Ray Castillo", (
              "The Millbrook school board postponed its vote on a five-year bus contract on Thursday, asking the "
              "two bidders to resubmit prices that include electric buses.",
              "Parents at the meeting raised concerns about long rides on rural routes, some of which take more "
              "than an hour each way. Board member Lena Fairchild said any new contract must shorten them.",
              "The current contract expires at the end of August. The board will meet again on May 23, and "
              "district staff said a short extension is possible if no deal is reached.",
          )),
    Story("farmers-report-early-strawberry-harvest", "2024-05-08T07:45:00-05:00",
          "Valley farmers report an early strawberry harvest", "Jo Whitfield", (
              "Strawberry growers across the valley began picking nearly two weeks early this year, after a "
              "mild April brought the first fruit on before the usual mid-May start.",
              "At Greer Family Farm, pick-your-own rows opened on Monday. \"We had cars waiting at the gate,\" "
              "said owner Martha Greer, whose family has grown berries on the land since 1952.",
              "Growers warned that a late frost could still damage later varieties, and advised visitors to call "
              "ahead before driving out to the farms.",
          )),
    Story("bridge-repairs-close-main-street", "2024-05-03T11:10:00-05:00",
          "Bridge repairs will close Main Street for six weeks", "Ray Castillo", (
              "The Main Street bridge over Cedar Creek will close to traffic from June 3 for six weeks while "
              "crews replace its deck and railings, the county road department said.",
              "Drivers will be detoured along Route 9 and Orchard Lane, adding about ten minutes to trips across "
              "town. A footpath on the east side will stay open for pedestrians and cyclists.",
              "Shop owners near the bridge asked the county to add signs saying that businesses remain open "
              "during the works. The department agreed to put up temporary signs at both ends of the detour.",
          )),
)

# 江城晚报: a fictional Chinese evening paper; pages are served in GBK.
JIANGCHENG = (
    Story("100231", "2024-05-14T08:30:00+08:00", "江城地铁五号线开通试运营", "李明", (
        "5月14日上午，江城地铁五号线正式开通试运营。这条线路全长二十六公里，共设十九座车站，连接城东新区与老城商业区。",
        "市轨道交通集团负责人介绍，五号线开通后，从东湖站到火车站的时间将由一个多小时缩短到三十五分钟。"
        "试运营期间，列车每六分钟一班，早晚高峰加密到四分钟一班。",
        "不少市民一早就来体验新线路。家住城东的王女士说：“以前上班要换两次公交，现在坐地铁直达，方便多了。”",
    )),
    Story("100245", "2024-05-13T19:10:00+08:00", "老街改造完成 百年骑楼重现风貌", "陈静", (
        "经过一年半的修缮，江城老街改造工程日前完工。沿街四十多栋百年骑楼修旧如旧，青石板路面也全部恢复。",
        "项目负责人表示，改造中保留了原有的木窗和雕花，新增了排水和消防设施。老街还引入了茶馆、书店和手工艺店铺。",
        "周末的老街游人如织。七十岁的张大爷在这里住了一辈子，他说：“房子还是原来的样子，可是住着舒服多了。”",
    )),
    Story("100262", "2024-05-12T10:00:00+08:00", "江城举办首届龙舟邀请赛", "李明", (
        "5月12日，首届江城龙舟邀请赛在滨江公园水域举行，来自省内外的二十四支队伍参加了比赛。",
        "比赛分为男子组和女子组，赛程五百米。经过激烈角逐，南湖龙舟队以两分零八秒的成绩获得男子组冠军。",
        "赛事组委会表示，今后邀请赛将每年举办一次，并计划增设青少年组，让更多年轻人了解龙舟文化。",
    )),
    Story("100270", "2024-05-10T15:45:00+08:00", "全市中小学将开设游泳课", "王芳", (
        "市教育局近日发布通知，从今年秋季学期起，全市中小学将把游泳课纳入体育教学内容。",
        "通知要求，有条件的学校利用自有泳池上课，没有泳池的学校可与附近体育场馆合作。每名学生每学期至少上八节游泳课。",
        "教育局相关负责人表示，开设游泳课既能增强学生体质，也能提高防溺水能力。暑假前还将组织教师参加专项培训。",
    )),
    Story("100288", "2024-05-08T09:20:00+08:00", "城西湿地公园迎来候鸟归来", "陈静", (
        "近日，城西湿地公园迎来大批候鸟。观鸟爱好者在园内记录到白鹭、苍鹭、黑水鸡等三十多种鸟类。",
        "公园管理处介绍，经过三年的生态修复，湿地水质明显改善，芦苇面积扩大了一倍，为鸟类提供了良好的栖息环境。",
        "管理处提醒游客，观鸟时请保持距离，不要投喂和惊扰鸟类。公园还在东侧新建了两座观鸟屋，免费向市民开放。",
    )),
)
