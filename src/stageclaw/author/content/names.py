"""Personal names from several cultures, with the short names and adopted names people go by.

A culture lists given names and family names as written in its usual script for an English
mailbox. Chinese, Korean and Vietnamese names also carry their native form (`native`), which the
Chinese locale shows; the Latin form is what an address is made from.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Culture:
    key: str
    given: tuple[str, ...]
    family: tuple[str, ...]
    short: dict[str, str] = field(default_factory=dict)  # given name -> the name people call them
    native: dict[str, str] = field(default_factory=dict)  # Latin form -> native script
    family_first: bool = False  # in the native script: 王丽, not 丽王
    adopted: tuple[str, ...] = ()  # English names people of this culture often take at work


def _split(text: str) -> tuple[str, ...]:
    """Whitespace-separated names; an underscore is a space inside one ("de_Vries")."""
    return tuple(name.replace("_", " ") for name in text.split())


def _pairs(text: str) -> dict[str, str]:
    """`a=b c=d` -> {a: b, c: d}; names with spaces use underscores."""
    return {a.replace("_", " "): b.replace("_", " ") for a, b in (p.split("=") for p in text.split())}


CULTURES: dict[str, Culture] = {
    c.key: c
    for c in (
        Culture(
            "english",
            _split(
                "Katherine William Robert Elizabeth Jonathan Christopher Margaret Alexander Benjamin Rebecca "
                "Samantha Nicholas Jennifer Daniel Michael Thomas Victoria Matthew Eleanor Oliver Harriet "
                "Charlotte Graham Fiona Duncan Imogen Rachel Stuart"
            ),
            _split(
                "Whitfield Ashworth Pemberton Caldwell Hargreaves Thornton Blackwood Fairbanks Marsh Holloway "
                "Kendrick Ellison Prescott Radcliffe Winslow Hadley Barnes Cartwright Fletcher Langley Osborne "
                "Sinclair Turnbull"
            ),
            _pairs(
                "Katherine=Kate William=Will Robert=Rob Elizabeth=Liz Jonathan=Jon Christopher=Chris "
                "Margaret=Maggie Alexander=Alex Benjamin=Ben Rebecca=Becky Samantha=Sam Nicholas=Nick "
                "Jennifer=Jen Daniel=Dan Michael=Mike Thomas=Tom Victoria=Vicky Matthew=Matt Eleanor=Nell "
                "Oliver=Olly Charlotte=Lottie Imogen=Immy"
            ),
        ),
        Culture(
            "german",
            _split(
                "Johannes Katharina Maximilian Franziska Wolfgang Friedrich Susanne Christoph Stefanie Andreas "
                "Elisabeth Jana Lukas Annika Tobias Miriam Henning Carola Jürgen Ulrike Mareike Till"
            ),
            _split(
                "Brandt Kranz Vogt Hoffmann Schäfer Lindemann Bäcker Krüger Wendt Albrecht Engel Haas Seidel "
                "Fuchs Lorenz Ziegler Kühn Pohl Brenner Winkler"
            ),
            _pairs(
                "Johannes=Hannes Katharina=Kathi Maximilian=Max Franziska=Franzi Wolfgang=Wolf Friedrich=Fritz "
                "Susanne=Susi Christoph=Chris Stefanie=Steffi Andreas=Andi Elisabeth=Lisa Tobias=Tobi"
            ),
        ),
        Culture(
            "nordic",
            _split(
                "Henrik Kristoffer Fredrik Margareta Katarina Joakim Magnus Ingrid Sigrid Linnea Astrid Anders Elin"
            ),
            _split("Lindqvist Johansson Solberg Nyström Halvorsen Bergström Lund Eriksen Sandberg Holm Dahl Strand"),
            _pairs(
                "Henrik=Rik Kristoffer=Kris Fredrik=Fredde Margareta=Greta Katarina=Kajsa Joakim=Jocke Magnus=Mange"
            ),
        ),
        Culture(
            "spanish",
            _split(
                "Francisco José Guadalupe Ignacio Alejandro Dolores Jesús Roberto Eduardo Enrique Fernanda "
                "Lucía Mariana Tomás Ximena Renata Diego Valentina Andrés Camila Emilio Rocío"
            ),
            _split(
                "Herrera Fernández Solís Castillo Ramírez Morales Ortega Navarro Villalobos Aguilar Medina "
                "Esparza Lozano Quintero Salgado Treviño Cervantes Olvera Rojas Paredes"
            ),
            _pairs(
                "Francisco=Paco José=Pepe Guadalupe=Lupe Ignacio=Nacho Alejandro=Álex Dolores=Lola Jesús=Chuy "
                "Roberto=Beto Eduardo=Lalo Enrique=Quique Fernanda=Fer"
            ),
        ),
        Culture(
            "italian",
            _split("Giuseppe Francesca Giovanni Antonio Elisabetta Chiara Matteo Alessia Lorenzo Giulia Davide Serena"),
            _split("Ferraro Bianchi Conti Marchetti Galli Fontana Moretti Santoro Rinaldi Caruso Greco Barbieri"),
            _pairs("Giuseppe=Beppe Francesca=Fra Giovanni=Gianni Antonio=Toni Elisabetta=Betta"),
        ),
        Culture(
            "french",
            _split("Stéphanie Frédéric Dominique Catherine Nicolas Valentin Chloé Mathilde Guillaume Élodie Bastien"),
            _split("Dubois Lefèvre Moreau Girard Fontaine Rousseau Chevalier Marchand Perrin Lemaire Garnier"),
            _pairs("Stéphanie=Steph Frédéric=Fred Dominique=Dom Catherine=Cathy Nicolas=Nico Valentin=Val"),
        ),
        Culture(
            "polish",
            _split("Katarzyna Małgorzata Aleksander Wojciech Agnieszka Tomasz Krzysztof Magdalena Paweł Joanna"),
            _split("Kowalczyk Nowak Wójcik Mazur Krawczyk Zając Król Wieczorek Pawlak Michalak Sikora Baran"),
            _pairs(
                "Katarzyna=Kasia Małgorzata=Gosia Aleksander=Olek Wojciech=Wojtek Agnieszka=Aga Tomasz=Tomek "
                "Krzysztof=Krzysiek Magdalena=Magda"
            ),
        ),
        Culture(
            "yoruba",
            _split(
                "Oluwaseun Olufemi Oluwatobi Adebayo Babatunde Folasade Titilayo Temitope Ayodeji Funmilayo Kehinde"
            ),
            _split("Adeyemi Okonjo Balogun Adebayo Ogunleye Afolabi Oyelaran Fashola Akinola Ademola"),
            _pairs(
                "Oluwaseun=Seun Olufemi=Femi Oluwatobi=Tobi Adebayo=Bayo Babatunde=Tunde Folasade=Sade "
                "Titilayo=Titi Temitope=Tope Ayodeji=Deji Funmilayo=Funmi"
            ),
        ),
        Culture(
            "igbo",
            _split("Chukwuemeka Chiamaka Chinonso Ifeoma Ikechukwu Ngozi Nnamdi Obinna Amara Adaeze"),
            _split("Okafor Nwosu Eze Okeke Obi Nwachukwu Onyekachi Chukwu Anyanwu Ibe"),
            _pairs("Chukwuemeka=Emeka Chiamaka=Amaka Chinonso=Nonso Ifeoma=Ify Ikechukwu=Ike Adaeze=Ada"),
        ),
        Culture(
            "indian",
            _split(
                "Venkatesh Siddharth Abhishek Priyanka Krishnan Raghavendra Subramanian Aishwarya Vikram Rajesh "
                "Ananya Deepika Arjun Kavya Meera Rohan"
            ),
            _split("Raman Nair Mehta Iyer Krishnamurthy Sharma Banerjee Reddy Kulkarni Pillai Desai Chatterjee Rao"),
            _pairs(
                "Venkatesh=Venky Siddharth=Sid Abhishek=Abhi Priyanka=Priya Krishnan=Krish Raghavendra=Raghu "
                "Subramanian=Subbu Aishwarya=Aishu Vikram=Vicky Rajesh=Raj"
            ),
        ),
        Culture(
            "arabic",
            _split("Mohammed Nadia Yousef Leila Omar Rania Karim Samira Tariq Huda Bilal Yasmin"),
            _split("Haddad Khalil Farah Mansour Saleh Nasser Qureshi Aziz Darwish Hamdan"),
            _pairs("Mohammed=Mo Abdullah=Abdu"),
        ),
        Culture(
            "turkish",
            _split("Mehmet Ayşe Mustafa Elif Emre Zeynep Burak Selin Kerem Deniz"),
            _split("Demir Yılmaz Kaya Şahin Çelik Aydın Öztürk Arslan Doğan Koç"),
            _pairs("Mehmet=Memo Mustafa=Musti"),
        ),
        Culture(
            "japanese",
            _split("Kenji Hana Yuki Haruto Aoi Sota Mei Riku Sakura Daiki Emi Takumi"),
            _split("Watanabe Kobayashi Sato Tanaka Nakamura Yamamoto Ito Kato Yoshida Matsumoto"),
        ),
        Culture(
            "chinese",
            _split(
                "Li Wei Fang Min Jing Lei Yang Yong Jie Tao Ming Chao Xiuying Ping Xiaodong Jiayi Zihan Haoran "
                "Xinyi Siyuan Yutong Junjie Shihan"
            ),
            _split(
                "Wang Zhang Liu Chen Zhou Sun Ma Zhu Hu Guo He Lin Luo Gao Zheng Liang Xie Song Tang Han Feng "
                "Deng Cao Peng"
            ),
            native=_pairs(
                "Li=丽 Wei=伟 Fang=芳 Min=敏 Jing=静 Lei=磊 Yang=洋 Yong=勇 Jie=杰 Tao=涛 Ming=明 Chao=超 Xiuying=秀英 "
                "Ping=平 Xiaodong=晓东 Jiayi=佳怡 Zihan=子涵 Haoran=浩然 Xinyi=欣怡 Siyuan=思远 Yutong=雨桐 "
                "Junjie=俊杰 Shihan=诗涵 Wang=王 Zhang=张 Liu=刘 Chen=陈 Zhou=周 Sun=孙 Ma=马 Zhu=朱 Hu=胡 Guo=郭 "
                "He=何 Lin=林 Luo=罗 Gao=高 Zheng=郑 Liang=梁 Xie=谢 Song=宋 Tang=唐 Han=韩 Feng=冯 Deng=邓 Cao=曹 "
                "Peng=彭"
            ),
            family_first=True,
            adopted=_split("Lily Kevin Grace Jason Vivian Eric Cindy Tony Helen Frank Amy Sophie Leo Iris Ryan Emma"),
        ),
        Culture(
            "korean",
            _split("Jiwoo Minjun Seoyeon Hyunwoo Jisoo Dohyun Yuna Sungmin Haeun Jaehyun"),
            _split("Kim Lee Park Choi Jung Kang Yoon Jang Lim Shin"),
            native=_pairs(
                "Jiwoo=지우 Minjun=민준 Seoyeon=서연 Hyunwoo=현우 Jisoo=지수 Dohyun=도현 Yuna=유나 Sungmin=성민 "
                "Haeun=하은 Jaehyun=재현 Kim=김 Lee=이 Park=박 Choi=최 Jung=정 Kang=강 Yoon=윤 Jang=장 Lim=임 Shin=신"
            ),
            family_first=True,
            adopted=_split("Jenny Daniel Grace Andrew Sarah Justin Michelle Brian"),
        ),
        Culture(
            "vietnamese",
            _split("Lan Minh Thu Huong Duc Linh Quang Trang Phuong Tuan"),
            _split("Nguyen Tran Le Pham Hoang Vu Dang Bui Do Ngo"),
            family_first=True,
            adopted=_split("Lana Tony Anna Kevin Linda Vincent"),
        ),
        Culture(
            "brazilian",
            _split(
                "Fernando Roberto Eduardo Gabriela Rafael Guilherme Mariana Leonardo Fernanda Beatriz Thiago Larissa"
            ),
            _split("Silva Souza Oliveira Carvalho Almeida Ribeiro Barbosa Rocha Teixeira Moreira Cardoso Pereira"),
            _pairs(
                "Fernando=Nando Roberto=Beto Eduardo=Dudu Gabriela=Gabi Rafael=Rafa Guilherme=Gui Mariana=Mari "
                "Leonardo=Leo Fernanda=Nanda"
            ),
        ),
        Culture(
            "akan",
            _split("Kwame Akosua Kofi Ama Yaw Abena Kwabena Efua Kojo Adwoa"),
            _split("Mensah Boateng Owusu Asante Agyeman Osei Darko Appiah Frimpong Addo"),
        ),
        Culture(
            "dutch",
            _split("Joost Femke Pieter Anouk Maarten Sanne Bram Lotte Wouter Eline"),
            _split("de_Vries Jansen Bakker Visser Smit Meijer de_Boer Mulder Bos Vos"),
            _pairs("Pieter=Piet Maarten=Mart"),
        ),
    )
}
